/// Hexadecimal text for byte strings: the notation EMV specifications, logs of APDUs and test vectors use.
extension Array where Element == UInt8 {
    /// Decodes hexadecimal text (upper or lower case, no separators); nil when the text is not an even
    /// number of hex digits.
    public init?(hex: some StringProtocol) {
        let decoded =
            hex.utf8.withContiguousStorageIfAvailable { Self.decodeHex($0) }
            ?? Self.decodeHex(Array(hex.utf8))
        guard let decoded else { return nil }
        self = decoded
    }

    /// Decodes ASCII hex digits; the batch interface decodes millions of these, so it works on raw UTF-8.
    @usableFromInline
    static func decodeHex(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: text.count / 2)
        var index = text.startIndex
        for i in 0..<bytes.count {
            guard let high = nibble(text[index]) else { return nil }
            index = text.index(after: index)
            guard let low = nibble(text[index]) else { return nil }
            index = text.index(after: index)
            bytes[i] = high << 4 | low
        }
        return bytes
    }

    @inline(__always)
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }
}

extension Sequence where Element == UInt8 {
    /// Upper-case hexadecimal text of the bytes, two digits each, no separators.
    public var hexString: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
