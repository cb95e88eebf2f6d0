/// ISO 9564-1 format 4: a 16-byte PIN field and PAN field bound together under AES.
extension PINBlock {
    /// Encodes the clear format 4 PIN field with random bytes from the system generator
    /// (psec `encode_pin_field_iso_4`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPIN``.
    public static func encodeISO4PINField(pin: String) throws(CryptoError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return try encodeISO4PINField(pin: pin, using: &generator)
    }

    /// Encodes the clear format 4 PIN field: `4`, PIN length, PIN, `A` fill to 8 bytes, then 8 bytes from
    /// `generator`.
    public static func encodeISO4PINField(
        pin: String, using generator: inout some RandomNumberGenerator
    ) throws(CryptoError) -> [UInt8] {
        let digits = try withUTF8(pin, pinDigits)
        return BigEndianBlock.bytes(pinField(control: 4, pin: digits) { 0xA }, generator.next())
    }

    /// Encodes the clear format 4 PAN field (psec `encode_pan_field_iso_4`): the number of PAN digits beyond
    /// 12 (0 for 12 or fewer), the PAN left-padded with zeros to 12 digits, then zeros to 16 bytes.
    ///
    /// - Throws: ``CryptoError/Code/invalidPAN`` unless the PAN is 1 to 19 ASCII digits.
    public static func encodeISO4PANField(pan: String) throws(CryptoError) -> [UInt8] {
        let field = try withUTF8(pan) { (pan) throws(CryptoError) in
            guard isASCIIDigits(pan, lengths: 1...19) else {
                throw CryptoError(.invalidPAN, "the PAN must be 1 to 19 ASCII digits")
            }
            // The 32 nibbles in two blocks: the length nibble, the zero padding, the digits, then zeros.
            var blocks: (high: UInt64, low: UInt64) = (UInt64(max(0, pan.count - 12)) << 60, 0)
            let first = 1 + max(0, 12 - pan.count)
            for (offset, digit) in pan.enumerated() {
                let index = first + offset
                if index < 16 {
                    blocks.high |= UInt64(digit & 0xF) << (60 - 4 * index)
                } else {
                    blocks.low |= UInt64(digit & 0xF) << (60 - 4 * (index - 16))
                }
            }
            return blocks
        }
        return BigEndianBlock.bytes(field.high, field.low)
    }

    /// Decodes a clear format 4 PIN field and returns the PIN (psec `decode_pin_field_iso_4`); the random
    /// second half is not checked.
    ///
    /// - Throws: ``CryptoError/Code/invalidPINBlock`` (not 16 bytes), ``CryptoError/Code/invalidPINBlockFormat``,
    ///   ``CryptoError/Code/invalidPIN`` (length field or digits), ``CryptoError/Code/invalidPINBlockFill``.
    public static func decodeISO4PINField(_ pinField: [UInt8]) throws(CryptoError) -> String {
        guard pinField.count == 16 else {
            throw CryptoError(.invalidPINBlock, "the PIN field must have 16 bytes, not \(pinField.count)")
        }
        return try decodePINField(BigEndianBlock.load(pinField), control: 4) { $0 == 0xA }
    }

    /// Enciphers a format 4 PIN block with random fill from the system generator
    /// (psec `encipher_pinblock_iso_4`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPIN``, then ``CryptoError/Code/invalidPAN``, then
    ///   ``CryptoError/Code/invalidKeyLength`` (the AES key must have 16, 24 or 32 bytes).
    public static func encipherISO4(pin: String, pan: String, key: [UInt8]) throws(CryptoError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return try encipherISO4(pin: pin, pan: pan, key: key, using: &generator)
    }

    /// Enciphers a format 4 PIN block: AES(K, AES(K, PIN field) ⊕ PAN field), with the PIN field's random
    /// half drawn from `generator`.
    public static func encipherISO4(
        pin: String, pan: String, key: [UInt8], using generator: inout some RandomNumberGenerator
    ) throws(CryptoError) -> [UInt8] {
        var block = try encodeISO4PINField(pin: pin, using: &generator)
        let panField = try encodeISO4PANField(pan: pan)
        let key = try AESBlock.key(key)
        try AESBlock.encrypt(&block, key: key)
        xor(&block, panField)
        try AESBlock.encrypt(&block, key: key)
        return block
    }

    /// Deciphers a format 4 PIN block and returns the PIN (psec `decipher_pinblock_iso_4`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPINBlock`` (not 16 bytes), ``CryptoError/Code/invalidKeyLength``,
    ///   ``CryptoError/Code/invalidPAN``, then the errors of ``decodeISO4PINField(_:)``.
    public static func decipherISO4(_ pinBlock: [UInt8], pan: String, key: [UInt8]) throws(CryptoError) -> String {
        guard !pinBlock.isEmpty, pinBlock.count % 16 == 0 else {
            throw CryptoError(.invalidPINBlock, "the PIN block must have 16 bytes, not \(pinBlock.count)")
        }
        let key = try AESBlock.key(key)
        let panField = try encodeISO4PANField(pan: pan)
        guard pinBlock.count == 16 else {
            throw CryptoError(.invalidPINBlock, "the PIN block must have 16 bytes, not \(pinBlock.count)")
        }
        var block = pinBlock
        try AESBlock.decrypt(&block, key: key)
        xor(&block, panField)
        try AESBlock.decrypt(&block, key: key)
        return try decodeISO4PINField(block)
    }

    /// XORs the 16 bytes of `field` into the 16 bytes of `block`.
    private static func xor(_ block: inout [UInt8], _ field: [UInt8]) {
        for index in 0..<16 { block[index] ^= field[index] }
    }
}
