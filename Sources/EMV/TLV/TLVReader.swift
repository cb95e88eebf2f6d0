/// Reads single tag and length fields from a byte buffer; shared by the TLV parser and the DOL parser.
///
/// Positions are offsets from the start of the caller's input, which is also where `buffer` starts.
struct TLVReader {
    let buffer: UnsafeBufferPointer<UInt8>
    let rules: EncodingRules

    /// Reads the tag at `position`, which must end before `limit`; returns the tag and its size in bytes.
    @inline(__always)
    func readTag(at position: Int, limit: Int) throws(TLVError) -> (tag: Tag, size: Int) {
        guard position < limit else {
            throw TLVError(code: .truncatedTag, offset: position, message: "expected a tag, found the end of the data")
        }
        let first = buffer[position]
        var raw = UInt32(first)
        var size = 1
        if first & 0x1F == 0x1F {
            while true {
                guard position + size < limit else {
                    throw TLVError(
                        code: .truncatedTag, offset: position,
                        message: "the data ends inside a \(size + 1)-byte or longer tag")
                }
                let byte = buffer[position + size]
                raw = raw << 8 | UInt32(byte)
                size += 1
                if byte & 0x80 == 0 { break }
                if size == 3 {
                    throw TLVError(
                        code: .tagTooLong, offset: position, message: "a tag of more than 3 bytes (EMV allows 3)")
                }
            }
        }
        return (Tag(rawValue: raw), size)
    }

    /// Reads the length field at `position` (one to three bytes), which must end before `limit`; returns the
    /// value length and the field's size.
    @inline(__always)
    func readLength(at position: Int, limit: Int, tag: Tag) throws(TLVError) -> (length: Int, size: Int) {
        guard position < limit else {
            throw TLVError(code: .truncatedLength, offset: position, message: "tag \(tag) has no length field")
        }
        let first = buffer[position]
        if first < 0x80 { return (Int(first), 1) }
        if first == 0x80 {
            throw TLVError(
                code: .indefiniteLength, offset: position,
                message: "tag \(tag) uses the indefinite length form 80, which EMV does not allow")
        }
        let subsequent = Int(first & 0x7F)
        guard subsequent <= 2 else {
            throw TLVError(
                code: .lengthTooLong, offset: position,
                message: "tag \(tag) has a length field of \(subsequent + 1) bytes (EMV allows 3)")
        }
        guard position + subsequent < limit else {
            throw TLVError(
                code: .truncatedLength, offset: position,
                message: "the data ends inside the \(subsequent + 1)-byte length field of tag \(tag)")
        }
        var length = 0
        for index in 1...subsequent { length = length << 8 | Int(buffer[position + index]) }
        if !rules.allowsNonMinimalLengths && length < (subsequent == 1 ? 0x80 : 0x100) {
            throw TLVError(
                code: .nonMinimalLength, offset: position,
                message: "tag \(tag) writes length \(length) in \(subsequent + 1) bytes; strict rules need the shortest form")
        }
        return (length, 1 + subsequent)
    }
}
