/// EMV `cn` data as ODA compares it: decimal digits, one per nibble, left-justified and padded with 'F' nibbles
/// (a PAN in tag 5A and in the ICC certificate, the issuer identifier in the issuer certificate).
enum CompressedNumeric {
    /// The digits before the padding; nil when a nibble before the padding is not a digit or one after it is
    /// not 'F'.
    static func digits(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        var digits: [UInt8] = []
        var padding = false
        for byte in bytes {
            for nibble in [byte >> 4, byte & 0x0F] {
                if padding || nibble == 0x0F {
                    guard nibble == 0x0F else { return nil }
                    padding = true
                } else {
                    guard nibble <= 9 else { return nil }
                    digits.append(nibble)
                }
            }
        }
        return digits
    }

    /// Packs digits into `length` bytes, padding with 'F'; nil when they do not fit or one is not a digit.
    static func encode(_ digits: [UInt8], length: Int) -> [UInt8]? {
        guard digits.count <= length * 2, digits.allSatisfy({ $0 <= 9 }) else { return nil }
        let nibbles = digits + [UInt8](repeating: 0x0F, count: length * 2 - digits.count)
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }
}
