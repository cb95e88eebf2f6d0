/// Binary-coded decimal as EMV uses it (Book 3, 4.3): format n packs digits two per byte, right-justified
/// and left-padded with zeros; format cn packs them left-justified and pads the last nibble with F.
enum BCD {
    /// Decodes format n: every nibble must be 0-9.
    ///
    /// - Parameter what: the data element's name, for the error message.
    static func numericDigits(_ bytes: some Collection<UInt8>, what: String) throws -> [UInt8] {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        for (offset, byte) in bytes.enumerated() {
            for nibble in [byte >> 4, byte & 0x0F] {
                guard nibble <= 9 else {
                    throw ValueError(
                        code: .invalidDigit, offset: offset,
                        message: "\(what) has a non-decimal nibble in byte \(offset)")
                }
                digits.append(nibble)
            }
        }
        return digits
    }

    /// Decodes format cn: digits 0-9, then only F nibbles to the end (EMV Book 3, 4.3: "left justified and
    /// padded with trailing 'F's").
    static func compressedNumericDigits(_ bytes: some Collection<UInt8>, what: String) throws -> [UInt8] {
        var digits: [UInt8] = []
        var padded = false
        for (offset, byte) in bytes.enumerated() {
            for nibble in [byte >> 4, byte & 0x0F] {
                if nibble == 0x0F {
                    padded = true
                } else {
                    guard nibble <= 9 else {
                        throw ValueError(
                            code: .invalidDigit, offset: offset,
                            message: "\(what) has a non-decimal nibble in byte \(offset)")
                    }
                    guard !padded else {
                        throw ValueError(
                            code: .invalidPadding, offset: offset, message: "\(what) has a digit after F padding")
                    }
                    digits.append(nibble)
                }
            }
        }
        return digits
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

    /// Digit values of ASCII decimal text; throws ``ValueError/Code/invalidDigit`` with the character offset.
    static func digits(ofText text: some StringProtocol, what: String) throws -> [UInt8] {
        var digits: [UInt8] = []
        for (offset, character) in text.utf8.enumerated() {
            guard character >= UInt8(ascii: "0") && character <= UInt8(ascii: "9") else {
                throw ValueError(
                    code: .invalidDigit, offset: offset, message: "\(what) has a non-digit character at \(offset)")
            }
            digits.append(character - UInt8(ascii: "0"))
        }
        return digits
    }

    /// ASCII text of digit values.
    static func text(_ digits: some Sequence<UInt8>) -> String {
        String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }
}
