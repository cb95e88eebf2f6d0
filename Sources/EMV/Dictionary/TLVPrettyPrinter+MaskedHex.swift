extension TLVPrettyPrinter {
    /// The bytes in hex with every sensitive value's digits replaced by `*` (its tag and length stay), so a raw
    /// APDU trace can be shown without a PAN, track data or a cardholder name.
    ///
    /// Masks the same values ``format(_:)-(TLVNodeCollection)`` masks. Bytes that do not parse as TLV are
    /// masked whole: what they hold cannot be known.
    public func maskedHex(_ bytes: [UInt8], rules: EncodingRules = .lenient) -> String {
        guard !bytes.isEmpty else { return "" }
        guard let nodes = try? TLV.parse(bytes, rules: rules) else {
            return String(repeating: "*", count: bytes.count * 2)
        }
        var digits = Array(bytes.hexString.utf8)
        for node in nodes.allDescendants
        where !node.isConstructed && dictionary.masking(of: node.tag, kernel: kernel) != .none {
            let start = (node.valueOffset - bytes.startIndex) * 2
            for index in start..<(start + node.length * 2) { digits[index] = UInt8(ascii: "*") }
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
