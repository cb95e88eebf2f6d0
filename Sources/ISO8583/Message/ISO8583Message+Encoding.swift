extension ISO8583Message {
    /// Encodes the message as `specification` lays it out: MTI, primary bitmap, secondary bitmap when any field over
    /// 64 is present, then the fields in ascending order.
    /// - Throws: ``ISO8583Error`` naming the field: ``ISO8583Error/invalidFieldNumber``,
    ///   ``ISO8583Error/fieldNotInSpecification``, ``ISO8583Error/lengthMismatch``,
    ///   ``ISO8583Error/lengthExceedsMaximum``, ``ISO8583Error/nonNumeric``, ``ISO8583Error/invalidCharacter``,
    ///   ``ISO8583Error/invalidValue``, ``ISO8583Error/invalidPadding``, ``ISO8583Error/secondaryBitmapInconsistent``.
    public func encoded(using specification: Specification) throws(ISO8583Error) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 + entries.count * 12)
        try encode(into: &output, using: specification)
        return output
    }

    /// Appends the encoded message to `output` (for framing without a copy).
    public func encode(into output: inout [UInt8], using specification: Specification) throws(ISO8583Error) {
        var primary: UInt64 = 0
        var secondary: UInt64 = 0
        for entry in entries {
            guard (2...128).contains(entry.number) else {
                throw ISO8583Error(
                    code: .invalidFieldNumber, field: entry.number,
                    message: "field \(entry.number) is outside 2...128")
            }
            guard specification.layouts[entry.number] != nil else {
                throw ISO8583Error(
                    code: .fieldNotInSpecification, field: entry.number,
                    message: "field \(entry.number) is not in specification \(specification.name)")
            }
            if entry.number <= 64 {
                primary |= 1 << (64 - entry.number)
            } else {
                secondary |= 1 << (128 - entry.number)
            }
        }
        let digits = [mti.version.rawValue, mti.messageClass.rawValue, mti.function.rawValue, mti.origin.rawValue]
        switch specification.messageTypeEncoding {
        case .binary:
            output.append(digits[0] << 4 | digits[1])
            output.append(digits[2] << 4 | digits[3])
        case .ascii: for digit in digits { output.append(0x30 + digit) }
        case .ebcdic: for digit in digits { output.append(0xF0 + digit) }
        }
        if secondary != 0 {
            guard let encoding = specification.secondaryBitmapEncoding else {
                throw ISO8583Error(
                    code: .secondaryBitmapInconsistent, field: 1,
                    message: "fields over 64 need a secondary bitmap, which \(specification.name) does not have")
            }
            primary |= 1 << 63
            Self.appendBitmap(primary, encoding: specification.primaryBitmapEncoding, to: &output)
            Self.appendBitmap(secondary, encoding: encoding, to: &output)
        } else {
            Self.appendBitmap(primary, encoding: specification.primaryBitmapEncoding, to: &output)
        }
        for entry in entries {
            // Checked non-nil above.
            guard let layout = specification.layouts[entry.number] else { continue }
            try Self.appendField(entry.value, number: entry.number, layout: layout, to: &output)
        }
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendBitmap(
        _ bitmap: UInt64, encoding: FieldSpecification.DataEncoding, to output: inout [UInt8]
    ) {
        for shift in stride(from: 56, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: bitmap >> UInt64(shift))
            switch encoding {
            case .binary: output.append(byte)
            case .ascii:
                output.append(upperHexDigits[Int(byte >> 4)])
                output.append(upperHexDigits[Int(byte & 0x0F)])
            case .ebcdic:
                output.append(EBCDIC.fromLatin1[Int(upperHexDigits[Int(byte >> 4)])])
                output.append(EBCDIC.fromLatin1[Int(upperHexDigits[Int(byte & 0x0F)])])
            }
        }
    }

    private static func appendField(
        _ value: ISO8583FieldValue, number: Int, layout: FieldSpecification, to output: inout [UInt8]
    ) throws(ISO8583Error) {
        // Data first into the output after a placeholder for the prefix, then the prefix written in place: no
        // temporary array for the common text fields.
        let prefixStart = output.count
        let prefixBytes = max(layout.lengthPrefixBytes, 0)
        output.append(contentsOf: repeatElement(0, count: prefixBytes))
        let dataStart = output.count
        let length: Int
        switch (layout.dataEncoding, value) {
        case (.ascii, .text(let text)):
            for byte in text.utf8 {
                guard byte < 0x80 else {
                    throw ISO8583Error(
                        code: .invalidCharacter, field: number, message: "field \(number) holds a non-ASCII character")
                }
                output.append(byte)
            }
            length = output.count - dataStart
        case (.ebcdic, .text(let text)):
            for scalar in text.unicodeScalars {
                guard scalar.value <= 0xFF else {
                    throw ISO8583Error(
                        code: .invalidCharacter, field: number,
                        message: "field \(number) holds a character EBCDIC (cp500) cannot encode")
                }
                output.append(EBCDIC.fromLatin1[Int(scalar.value)])
            }
            length = output.count - dataStart
        case (.binary, .binary(let bytes)):
            output += bytes
            length = layout.lengthUnit == .nibbles ? bytes.count * 2 : bytes.count
        case (.binary, .text(let text)):
            length = try appendPacked(text, number: number, layout: layout, to: &output)
        case (.ascii, .binary), (.ebcdic, .binary):
            throw ISO8583Error(
                code: .invalidValue, field: number, message: "field \(number) is text but was given bytes")
        }
        if layout.content == .numeric {
            // Packed text was checked digit by digit before its pad nibble was added.
            if case .binary = value {
                try checkNumeric(output[dataStart...], encoding: .binary, number: number, offset: nil)
            } else if layout.dataEncoding != .binary {
                try checkNumeric(output[dataStart...], encoding: layout.dataEncoding, number: number, offset: nil)
            }
        }
        if prefixBytes == 0 {
            guard length == layout.maximumLength else {
                throw ISO8583Error(
                    code: .lengthMismatch, field: number,
                    message: "field \(number) is \(length) \(layout.lengthUnit) long, expecting \(layout.maximumLength)"
                )
            }
            return
        }
        guard length <= layout.maximumLength, length <= layout.prefixCapacity else {
            throw ISO8583Error(
                code: .lengthExceedsMaximum, field: number,
                message: "field \(number) is \(length) \(layout.lengthUnit) long, more than the maximum "
                    + "\(min(layout.maximumLength, layout.prefixCapacity))")
        }
        var remaining = length
        for index in stride(from: dataStart - 1, through: prefixStart, by: -1) {
            switch layout.lengthEncoding {
            case .binary:
                output[index] = UInt8(truncatingIfNeeded: remaining)
                remaining >>= 8
            case .bcd:
                output[index] = UInt8(remaining % 10) | UInt8(remaining / 10 % 10) << 4
                remaining /= 100
            case .ascii:
                output[index] = 0x30 + UInt8(remaining % 10)
                remaining /= 10
            case .ebcdic:
                output[index] = 0xF0 + UInt8(remaining % 10)
                remaining /= 10
            }
        }
    }

    /// Packs hex digits two to a byte, adding the pad nibble to an odd count as pyiso8583 does (left pad first);
    /// returns the length in the field's unit.
    private static func appendPacked(
        _ text: String, number: Int, layout: FieldSpecification, to output: inout [UInt8]
    ) throws(ISO8583Error) -> Int {
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(text.utf8.count + 1)
        for byte in text.utf8 {
            guard let nibble = hexValue(byte) else {
                throw ISO8583Error(
                    code: .invalidValue, field: number, message: "field \(number) is binary but its text is not hex")
            }
            guard layout.content == .any || nibble <= 9 else {
                throw ISO8583Error(
                    code: .nonNumeric, field: number, message: "field \(number) is numeric but holds other characters")
            }
            nibbles.append(nibble)
        }
        let digitCount = nibbles.count
        if digitCount % 2 == 1 {
            guard layout.lengthUnit == .nibbles else {
                throw ISO8583Error(
                    code: .invalidValue, field: number, message: "field \(number) has an odd number of hex digits")
            }
            if let pad = layout.leftPad {
                nibbles.insert(pad & 0x0F, at: 0)
            } else if let pad = layout.rightPad {
                nibbles.append(pad & 0x0F)
            } else {
                throw ISO8583Error(
                    code: .invalidPadding, field: number,
                    message: "field \(number) has an odd number of digits and its specification names no pad")
            }
        }
        var index = 0
        while index + 1 < nibbles.count {
            output.append(nibbles[index] << 4 | nibbles[index + 1])
            index += 2
        }
        return layout.lengthUnit == .nibbles ? digitCount : digitCount / 2
    }

    /// The value of an ASCII hex digit (either case, as Python's `binascii.a2b_hex` accepts); nil otherwise.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        if byte &- 0x30 <= 9 { return byte &- 0x30 }
        let folded = byte | 0x20
        return folded &- 0x61 <= 5 ? folded &- 0x61 &+ 10 : nil
    }

    /// Throws ``ISO8583Error/nonNumeric`` unless every character of the encoded data is a decimal digit.
    static func checkNumeric(
        _ data: ArraySlice<UInt8>, encoding: FieldSpecification.DataEncoding, number: Int, offset: Int?
    ) throws(ISO8583Error) {
        let valid: Bool
        switch encoding {
        case .ascii: valid = data.allSatisfy { $0 &- 0x30 <= 9 }
        case .ebcdic: valid = data.allSatisfy { $0 &- 0xF0 <= 9 }
        case .binary: valid = data.allSatisfy { $0 >> 4 <= 9 && $0 & 0x0F <= 9 }
        }
        guard valid else {
            throw ISO8583Error(
                code: .nonNumeric, offset: offset, field: number,
                message: "field \(number) is numeric but holds "
                    + "other characters")
        }
    }
}
