import EMV

extension ISO8583Message {
    /// Decodes one whole message laid out by `specification`.
    ///
    /// Stricter than pyiso8583 where pyiso8583 accepts what no sender should produce: length prefixes must be plain
    /// digits (Python's `int` also takes signs, spaces and underscores), numeric fields must hold digits, bit 1 needs
    /// a non-empty secondary bitmap, and bit 65 (pyiso8583's tertiary bitmap) is not supported.
    /// - Throws: ``ISO8583Error`` with the code, byte offset and field number of the first problem; never traps.
    public init(decoding bytes: [UInt8], using specification: Specification) throws(ISO8583Error) {
        try self.init(decoding: bytes[...], using: specification)
    }

    /// Decodes one whole message from a slice; offsets in errors count from the slice's start.
    public init(decoding bytes: ArraySlice<UInt8>, using specification: Specification) throws(ISO8583Error) {
        var reader = Reader(bytes: bytes)
        let mti = try reader.readMTI(specification.messageTypeEncoding)
        let primaryOffset = reader.offset
        let primary = try reader.readBitmap(specification.primaryBitmapEncoding, field: 0)
        var secondary: UInt64 = 0
        let secondaryOffset = reader.offset
        if primary >> 63 == 1 {
            guard let encoding = specification.secondaryBitmapEncoding else {
                throw ISO8583Error(
                    code: .secondaryBitmapInconsistent, offset: primaryOffset, field: 1,
                    message: "bit 1 announces a secondary bitmap, which \(specification.name) does not have")
            }
            secondary = try reader.readBitmap(encoding, field: 1)
            guard secondary != 0 else {
                throw ISO8583Error(
                    code: .secondaryBitmapInconsistent, offset: secondaryOffset, field: 1,
                    message: "bit 1 is set but the secondary bitmap announces no field")
            }
        }
        let count = (primary & ~(1 << 63)).nonzeroBitCount + secondary.nonzeroBitCount
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        // Check every announced field against the specification before reading any, so the error names the bitmap.
        for number in 2...128 {
            let set = number <= 64 ? primary >> (64 - number) & 1 == 1 : secondary >> (128 - number) & 1 == 1
            guard set else { continue }
            guard specification.layouts[number] != nil else {
                throw ISO8583Error(
                    code: .fieldNotInSpecification, offset: number <= 64 ? primaryOffset : secondaryOffset,
                    field: number, message: "bit \(number) is set but \(specification.name) has no field \(number)")
            }
            entries.append(Entry(number: number, value: .text("")))
        }
        for index in entries.indices {
            let number = entries[index].number
            guard let layout = specification.layouts[number] else { continue }
            entries[index].value = try reader.readField(number: number, layout: layout)
        }
        guard reader.offset == bytes.count else {
            throw ISO8583Error(
                code: .trailingBytes, offset: reader.offset,
                message: "\(bytes.count - reader.offset) bytes after the last field")
        }
        self.init(mti: mti, sortedEntries: entries)
    }
}

/// A cursor over the message bytes; every read checks its bounds and throws instead of trapping.
private struct Reader {
    let bytes: ArraySlice<UInt8>
    /// Bytes consumed, from the slice's start.
    var offset = 0

    var remaining: Int { bytes.count - offset }

    /// The next `count` bytes (the caller has checked they exist).
    func peek(_ count: Int) -> ArraySlice<UInt8> {
        let start = bytes.startIndex + offset
        return bytes[start..<start + count]
    }

    mutating func readMTI(_ encoding: FieldSpecification.DataEncoding) throws(ISO8583Error) -> MessageTypeIndicator {
        let width = encoding == .binary ? 2 : 4
        guard remaining >= width else {
            throw ISO8583Error(
                code: .truncatedMTI, offset: offset, field: 0,
                message: "\(remaining) bytes where the message type indicator needs \(width)")
        }
        let raw = peek(width)
        let start = raw.startIndex
        let digits: (UInt8, UInt8, UInt8, UInt8) =
            switch encoding {
            case .binary: (raw[start] >> 4, raw[start] & 0x0F, raw[start + 1] >> 4, raw[start + 1] & 0x0F)
            case .ascii:
                (raw[start] &- 0x30, raw[start + 1] &- 0x30, raw[start + 2] &- 0x30, raw[start + 3] &- 0x30)
            case .ebcdic:
                (raw[start] &- 0xF0, raw[start + 1] &- 0xF0, raw[start + 2] &- 0xF0, raw[start + 3] &- 0xF0)
            }
        guard let mti = MessageTypeIndicator(digits: digits) else {
            throw ISO8583Error(
                code: .invalidMTI, offset: offset, field: 0,
                message: "the message type indicator is not four decimal digits")
        }
        offset += width
        return mti
    }

    mutating func readBitmap(_ encoding: FieldSpecification.DataEncoding, field: Int) throws(ISO8583Error) -> UInt64 {
        let width = encoding == .binary ? 8 : 16
        let name = field == 0 ? "primary" : "secondary"
        guard remaining >= width else {
            throw ISO8583Error(
                code: .truncatedBitmap, offset: offset, field: field == 0 ? nil : 1,
                message: "\(remaining) bytes where the \(name) bitmap needs \(width)")
        }
        var bitmap: UInt64 = 0
        for byte in peek(width) {
            switch encoding {
            case .binary:
                bitmap = bitmap << 8 | UInt64(byte)
            case .ascii, .ebcdic:
                let character = encoding == .ascii ? byte : EBCDIC.toLatin1[Int(byte)]
                // Python's bytes.fromhex takes either case.
                guard character < 0x80, let nibble = ISO8583Message.hexValue(character) else {
                    throw ISO8583Error(
                        code: .invalidBitmap, offset: offset, field: field == 0 ? nil : 1,
                        message: "the \(name) bitmap is not \(width) hex digits")
                }
                bitmap = bitmap << 4 | UInt64(nibble)
            }
        }
        offset += width
        return bitmap
    }

    mutating func readField(number: Int, layout: FieldSpecification) throws(ISO8583Error) -> ISO8583FieldValue {
        var length = layout.maximumLength
        if layout.lengthPrefixBytes > 0 {
            length = try readLength(number: number, layout: layout)
        }
        guard length > 0 else {
            return layout.dataEncoding == .binary && layout.lengthUnit == .bytes ? .binary([]) : .text("")
        }
        // Not (length + 1) / 2: a specification may say Int.max.
        let byteCount = layout.lengthUnit == .nibbles ? length / 2 + length % 2 : length
        guard byteCount <= remaining else {
            throw ISO8583Error(
                code: .truncatedField, offset: offset, field: number,
                message: "field \(number) announces \(byteCount) bytes but \(remaining) remain")
        }
        let data = peek(byteCount)
        let value: ISO8583FieldValue
        switch layout.dataEncoding {
        case .binary where layout.lengthUnit == .bytes:
            value = .binary(Array(data))
        case .binary:
            var digits = data.hexString
            if length % 2 == 1 {
                // pyiso8583 strips the left pad if the first digit is it, else the right pad if the last is.
                let hex = Array("0123456789ABCDEF")
                if let pad = layout.leftPad, digits.first == hex[Int(pad & 0x0F)] {
                    digits.removeFirst()
                } else if let pad = layout.rightPad, digits.last == hex[Int(pad & 0x0F)] {
                    digits.removeLast()
                } else {
                    throw ISO8583Error(
                        code: .invalidPadding, offset: offset, field: number,
                        message: "field \(number) has \(length) digits but no pad nibble its specification names")
                }
            }
            if layout.content == .numeric, !digits.utf8.allSatisfy({ $0 &- 0x30 <= 9 }) {
                throw ISO8583Error(
                    code: .nonNumeric, offset: offset, field: number,
                    message: "field \(number) is numeric but holds other characters")
            }
            value = .text(digits)
        case .ascii:
            guard data.allSatisfy({ $0 < 0x80 }) else {
                throw ISO8583Error(
                    code: .invalidCharacter, offset: offset, field: number,
                    message: "field \(number) holds a byte over 0x7F in an ASCII field")
            }
            if layout.content == .numeric {
                try ISO8583Message.checkNumeric(data, encoding: .ascii, number: number, offset: offset)
            }
            value = .text(String(decoding: data, as: UTF8.self))
        case .ebcdic:
            if layout.content == .numeric {
                try ISO8583Message.checkNumeric(data, encoding: .ebcdic, number: number, offset: offset)
            }
            var text = ""
            text.unicodeScalars.reserveCapacity(byteCount)
            for byte in data { text.unicodeScalars.append(Unicode.Scalar(EBCDIC.toLatin1[Int(byte)])) }
            value = .text(text)
        }
        offset += byteCount
        return value
    }

    private mutating func readLength(number: Int, layout: FieldSpecification) throws(ISO8583Error) -> Int {
        let width = layout.lengthPrefixBytes
        guard width <= remaining else {
            throw ISO8583Error(
                code: .truncatedLength, offset: offset, field: number,
                message: "\(remaining) bytes where field \(number)'s length needs \(width)")
        }
        var length = 0
        // Past this, one more digit or byte could overflow; any such length is over every maximum anyway.
        let ceiling = Int.max >> 9
        var valid = true
        for byte in peek(width) {
            switch layout.lengthEncoding {
            case .binary:
                length = length > ceiling ? ceiling : length << 8 | Int(byte)
            case .bcd:
                valid = valid && byte >> 4 <= 9 && byte & 0x0F <= 9
                length = length > ceiling ? ceiling : length * 100 + Int(byte >> 4) * 10 + Int(byte & 0x0F)
            case .ascii, .ebcdic:
                let digit = byte &- (layout.lengthEncoding == .ascii ? 0x30 : 0xF0)
                valid = valid && digit <= 9
                length = length > ceiling ? ceiling : length * 10 + Int(digit)
            }
        }
        guard valid else {
            throw ISO8583Error(
                code: .invalidLength, offset: offset, field: number,
                message: "field \(number)'s length prefix is not a \(layout.lengthEncoding) number")
        }
        guard length <= layout.maximumLength else {
            throw ISO8583Error(
                code: .lengthExceedsMaximum, offset: offset, field: number,
                message: "field \(number) announces \(length) \(layout.lengthUnit), more than the maximum "
                    + "\(layout.maximumLength)")
        }
        offset += width
        return length
    }
}
