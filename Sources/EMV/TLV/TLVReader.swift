/// Reads single tag and length fields from a byte buffer; shared by the TLV parser and the DOL parser.
///
/// Positions are offsets from the start of the caller's input, which is also where `buffer` starts. The errors are
/// built out of line so the reads stay small enough to inline into the parse loop.
struct TLVReader {
    let buffer: UnsafeBufferPointer<UInt8>
    let rules: EncodingRules

    /// Reads the tag at `position`, which must end before `limit`; returns the tag and its size in bytes.
    @inline(__always)
    func readTag(at position: Int, limit: Int) throws(TLVError) -> (tag: Tag, size: Int) {
        guard position < limit else { throw Self.truncatedTag(at: position, size: 0) }
        let first = buffer[position]
        var raw = UInt32(first)
        var size = 1
        if first & 0x1F == 0x1F {
            while true {
                guard position + size < limit else { throw Self.truncatedTag(at: position, size: size) }
                let byte = buffer[position + size]
                raw = raw << 8 | UInt32(byte)
                size += 1
                if byte & 0x80 == 0 { break }
                if size == 3 { throw Self.tagTooLong(at: position) }
            }
        }
        return (Tag(rawValue: raw), size)
    }

    /// Reads the length field at `position` (one to three bytes), which must end before `limit`; returns the
    /// value length and the field's size.
    @inline(__always)
    func readLength(at position: Int, limit: Int, tag: Tag) throws(TLVError) -> (length: Int, size: Int) {
        guard position < limit else { throw Self.lengthError(.truncatedLength, at: position, tag: tag, fieldSize: 0) }
        let first = buffer[position]
        if first < 0x80 { return (Int(first), 1) }
        let subsequent = Int(first & 0x7F)
        guard first != 0x80, subsequent <= 2, position + subsequent < limit else {
            let code: TLVError.Code =
                first == 0x80 ? .indefiniteLength : subsequent > 2 ? .lengthTooLong : .truncatedLength
            throw Self.lengthError(code, at: position, tag: tag, fieldSize: subsequent + 1)
        }
        var length = Int(buffer[position + 1])
        if subsequent == 2 { length = length << 8 | Int(buffer[position + 2]) }
        if !rules.allowsNonMinimalLengths && length < (subsequent == 1 ? 0x80 : 0x100) {
            throw Self.lengthError(.nonMinimalLength, at: position, tag: tag, fieldSize: subsequent + 1, length: length)
        }
        return (length, 1 + subsequent)
    }

    @inline(never)
    private static func truncatedTag(at position: Int, size: Int) -> TLVError {
        TLVError(
            code: .truncatedTag, offset: position,
            message: size == 0
                ? "expected a tag, found the end of the data" : "the data ends inside a tag after \(size) bytes")
    }

    @inline(never)
    private static func tagTooLong(at position: Int) -> TLVError {
        TLVError(code: .tagTooLong, offset: position, message: "a tag of more than 3 bytes (EMV allows 3)")
    }

    @inline(never)
    private static func lengthError(
        _ code: TLVError.Code, at position: Int, tag: Tag, fieldSize: Int, length: Int = 0
    ) -> TLVError {
        let message =
            switch code {
            case .truncatedLength where fieldSize == 0: "tag \(tag) has no length field"
            case .truncatedLength: "the data ends inside the \(fieldSize)-byte length field of tag \(tag)"
            case .indefiniteLength: "tag \(tag) uses the indefinite length form 80, which EMV does not allow"
            case .lengthTooLong: "tag \(tag) has a length field of \(fieldSize) bytes (EMV allows 3)"
            default: "tag \(tag) writes length \(length) in \(fieldSize) bytes; strict rules need the shortest form"
            }
        return TLVError(code: code, offset: position, message: message)
    }
}
