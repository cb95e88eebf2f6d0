/// Hexadecimal text for byte strings: the notation EMV specifications, logs of APDUs and test vectors use.
extension Array where Element == UInt8 {
    /// Decodes hexadecimal text (upper or lower case, no separators); nil when the text is not an even
    /// number of hex digits.
    public init?(hex: some StringProtocol) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8? = nil
        for character in hex.utf8 {
            guard let nibble = Self.nibble(character) else { return nil }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { return nil }
        self = bytes
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
