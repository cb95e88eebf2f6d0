/// ISO 9564-1 format 0 (ANSI X9.8) and format 2 (the plaintext block of the EMV VERIFY command).
extension PINBlock {
    /// Encodes a format 0 PIN block: `0`, PIN length, PIN, `F` fill, XORed with the PAN block
    /// (psec `encode_pinblock_iso_0`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPIN``, then ``CryptoError/Code/invalidPAN`` (fewer than 13 digits).
    public static func encodeISO0(pin: String, pan: String) throws(CryptoError) -> [UInt8] {
        let block = try withUTF8(pin, pan) { (pin, pan) throws(CryptoError) in
            let digits = try pinDigits(pin)
            let pan = try panBlock(pan)
            return pinField(control: 0, pin: digits) { 0xF } ^ pan
        }
        return BigEndianBlock.bytes(block)
    }

    /// Decodes a format 0 PIN block and returns the PIN (psec `decode_pinblock_iso_0`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPAN``, ``CryptoError/Code/invalidPINBlock`` (not 8 bytes),
    ///   ``CryptoError/Code/invalidPINBlockFormat``, ``CryptoError/Code/invalidPIN`` (length field or digits),
    ///   ``CryptoError/Code/invalidPINBlockFill``.
    public static func decodeISO0(_ pinBlock: [UInt8], pan: String) throws(CryptoError) -> String {
        let pan = try withUTF8(pan, panBlock)
        let block = try block8(pinBlock)
        return try decodePINField(block ^ pan, control: 0) { $0 == 0xF }
    }

    /// Encodes a format 2 PIN block: `2`, PIN length, PIN, `F` fill; no PAN (psec `encode_pinblock_iso_2`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPIN``.
    public static func encodeISO2(pin: String) throws(CryptoError) -> [UInt8] {
        BigEndianBlock.bytes(pinField(control: 2, pin: try withUTF8(pin, pinDigits)) { 0xF })
    }

    /// Decodes a format 2 PIN block (psec `decode_pinblock_iso_2`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPINBlock``, ``CryptoError/Code/invalidPINBlockFormat``,
    ///   ``CryptoError/Code/invalidPIN``, ``CryptoError/Code/invalidPINBlockFill``.
    public static func decodeISO2(_ pinBlock: [UInt8]) throws(CryptoError) -> String {
        try decodePINField(try block8(pinBlock), control: 2) { $0 == 0xF }
    }
}
