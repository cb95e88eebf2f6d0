extension BCD {
    /// Decodes format n: every nibble must be 0-9.
    ///
    /// - Parameter what: the data element's name, for the error message.
    static func numericDigits(_ bytes: some Collection<UInt8>, what: String) throws -> [UInt8] {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        for (offset, byte) in bytes.enumerated() {
            for shift in stride(from: 4, through: 0, by: -4) {  // high nibble, then low; no array per byte
                let nibble = byte >> shift & 0x0F
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
    static func compressedNumericDigits(_ bytes: some Collection<UInt8>, what: String = "cn data") throws -> [UInt8] {
        var digits: [UInt8] = []
        var padded = false
        for (offset, byte) in bytes.enumerated() {
            for shift in stride(from: 4, through: 0, by: -4) {  // high nibble, then low; no array per byte
                let nibble = byte >> shift & 0x0F
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

    /// Digit values of ASCII decimal text; throws ``ValueError/Code/invalidDigit`` with the character offset.
    static func digits(ofText text: some StringProtocol, what: String) throws -> [UInt8] {
        guard let digits = digitValues(ofText: text) else {
            let offset = firstNonDigit(in: text) ?? 0
            throw ValueError(
                code: .invalidDigit, offset: offset, message: "\(what) has a non-digit character at \(offset)")
        }
        return digits
    }
}
