import EMV
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
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = text.withUTF8 { text in withUnsafeMutableBytes(of: &uuid) { Self.parse(text, into: $0) } }
        guard parsed else { return nil }
        self.init(uuid: uuid)
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

    private func text(digits: StaticString) -> String {
        withUnsafeBytes(of: uuid) { bytes in
            digits.withUTF8Buffer { digits in
                String(unsafeUninitializedCapacity: 36) { out in
                    var at = 0
                    for (index, group) in Self.groups.enumerated() {
                        if index > 0 {
                            out[at] = UInt8(ascii: "-")
                            at += 1
                        }
                        for byte in bytes[group.bytes..<group.bytes + group.count] {
                            out[at] = digits[Int(byte >> 4)]
                            out[at + 1] = digits[Int(byte & 0x0F)]
                            at += 2
                        }
                    }
                    return at
                }
            }
        }
    }

    /// The five groups of the text form: where each starts in the text, where its bytes go, how many.
    private static let groups: [(text: Int, bytes: Int, count: Int)] = [
        (0, 0, 4), (9, 4, 2), (14, 6, 2), (19, 8, 2), (24, 10, 6),
    ]

    /// Decodes exactly the 8-4-4-4-12 form into the sixteen bytes at `bytes`; false for anything else.
    private static func parse(_ text: UnsafeBufferPointer<UInt8>, into bytes: UnsafeMutableRawBufferPointer) -> Bool {
        guard text.count == 36 else { return false }
        let output = bytes.bindMemory(to: UInt8.self)
        for (index, group) in groups.enumerated() {
            if index > 0, text[group.text - 1] != UInt8(ascii: "-") { return false }
            let digits = UnsafeBufferPointer(rebasing: text[group.text..<group.text + 2 * group.count])
            let target = UnsafeMutableBufferPointer(rebasing: output[group.bytes..<group.bytes + group.count])
            guard [UInt8].decodeHex(digits, into: target) else { return false }
        }
        return true
    }
}
