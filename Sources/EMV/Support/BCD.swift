/// Binary-coded decimal as EMV uses it (Book 3, 4.3): format n packs digits two per byte, right-justified
/// and left-padded with zeros; format cn packs them left-justified and pads the last nibble with F.
///
/// This file holds the parts every folder needs (nibbles, packing, ASCII digits); the decoders that throw
/// ``ValueError`` are in `Values/BCD+Decoding.swift`. No imports, so the fuzz targets compile it as it is.
enum BCD {
    /// Each byte's high nibble, then its low nibble.
    static func nibbles(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            nibbles.append(byte >> 4)
            nibbles.append(byte & 0x0F)
        }
        return nibbles
    }

    /// Packs nibbles two per byte, appending `pad` when the count is odd.
    static func pack(_ nibbles: [UInt8], pad: UInt8 = 0x0F) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((nibbles.count + 1) / 2)
        var index = 0
        while index < nibbles.count {
            let high = nibbles[index]
            let low = index + 1 < nibbles.count ? nibbles[index + 1] : pad
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Format cn of digit values in exactly `byteCount` bytes, F-padded; nil when they do not fit or one is not
    /// a digit.
    static func compressedNumeric(_ digits: [UInt8], byteCount: Int) -> [UInt8]? {
        guard digits.count <= byteCount * 2, digits.allSatisfy({ $0 <= 9 }) else { return nil }
        return pack(digits + [UInt8](repeating: 0x0F, count: byteCount * 2 - digits.count))
    }

    /// Format n of a non-negative value in `byteCount` bytes; the caller checks that it fits.
    static func numeric(_ value: Int, byteCount: Int) -> [UInt8] {
        var digits = [UInt8](repeating: 0, count: byteCount * 2)
        var rest = value
        var index = digits.count - 1
        while rest > 0 && index >= 0 {
            digits[index] = UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
        return pack(digits)
    }

    /// The integer value of decimal digits; the caller keeps the count within Int's 18 safe digits.
    static func integer(_ digits: some Sequence<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1) }
    }

    /// Digit values of ASCII decimal text; nil when a character is not `0`-`9` (see ``firstNonDigit(in:)``).
    static func digitValues(ofText text: some StringProtocol) -> [UInt8]? {
        digitValues(ofASCII: text.utf8)
    }

    /// Digit values of ASCII decimal characters; nil when one is not `0`-`9`.
    static func digitValues(ofASCII characters: some Collection<UInt8>) -> [UInt8]? {
        var digits: [UInt8] = []
        digits.reserveCapacity(characters.count)
        for character in characters {
            guard isDigit(character) else { return nil }
            digits.append(character &- UInt8(ascii: "0"))
        }
        return digits
    }

    /// The UTF-8 offset of the first character of `text` that is not an ASCII digit.
    static func firstNonDigit(in text: some StringProtocol) -> Int? {
        text.utf8.enumerated().first { !isDigit($0.element) }?.offset
    }

    /// ASCII text of digit values.
    static func text(_ digits: some Sequence<UInt8>) -> String {
        String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }

    /// Whether `character` is an ASCII digit.
    static func isDigit(_ character: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character)
    }
}
