import Foundation

extension UUID {
    /// The 8-4-4-4-12 hex form in lowercase: `uuidString.lowercased()`, written directly.
    ///
    /// Foundation on Linux formats `uuidString` with `snprintf` (sixteen `%02X`) and parses `UUID(uuidString:)`
    /// with `sscanf`: about a microsecond each, and an authorization wrote or read a read id that way seven times.
    public var lowercaseText: String { text(digits: Self.lowercaseDigits) }

    /// The 8-4-4-4-12 hex form in uppercase: what `uuidString` gives, written directly (see ``lowercaseText``).
    public var uppercaseText: String { text(digits: Self.uppercaseDigits) }

    /// Parses the 8-4-4-4-12 hex form, digits in either case: what `UUID(uuidString:)` reads, without its
    /// `sscanf`. Unlike `sscanf`'s `%2hhx`, a pair of digits is exactly two hex digits (no sign, space or `0x`).
    public init?(text: String) {
        var text = text
        guard let (high, low) = text.withUTF8({ Self.parse($0) }) else { return nil }
        self.init(high, low)
    }

    /// The UUID whose sixteen bytes are `high` then `low`, each big-endian.
    init(_ high: UInt64, _ low: UInt64) {
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        self.init(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }

    private static let lowercaseDigits: StaticString = "0123456789abcdef"
    private static let uppercaseDigits: StaticString = "0123456789ABCDEF"
    /// Where the four hyphens go: after bytes 4, 6, 8 and 10.
    private static let hyphenAfter: UInt32 = 1 << 4 | 1 << 6 | 1 << 8 | 1 << 10

    private func text(digits: StaticString) -> String {
        withUnsafeBytes(of: uuid) { bytes in
            digits.withUTF8Buffer { digits in
                String(unsafeUninitializedCapacity: 36) { out in
                    var at = 0
                    for index in 0..<16 {
                        if Self.hyphenAfter & 1 << UInt32(index) != 0 {
                            out[at] = UInt8(ascii: "-")
                            at += 1
                        }
                        out[at] = digits[Int(bytes[index] >> 4)]
                        out[at + 1] = digits[Int(bytes[index] & 0x0F)]
                        at += 2
                    }
                    return at
                }
            }
        }
    }

    /// The sixteen bytes as two big-endian words, or nil unless `text` is exactly the 8-4-4-4-12 form.
    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard text.count == 36 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var at = 0
        for index in 0..<16 {
            if hyphenAfter & 1 << UInt32(index) != 0 {
                guard text[at] == UInt8(ascii: "-") else { return nil }
                at += 1
            }
            guard let high = nibble(text[at]), let low = nibble(text[at + 1]) else { return nil }
            let byte = UInt64(high << 4 | low)
            if index < 8 { words.0 = words.0 << 8 | byte } else { words.1 = words.1 << 8 | byte }
            at += 2
        }
        return words
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
