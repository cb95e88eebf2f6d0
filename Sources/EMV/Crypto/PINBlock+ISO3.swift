/// ISO 9564-1 format 3: like format 0, with random fill digits A to F.
extension PINBlock {
    /// Encodes a format 3 PIN block with fill from the system random number generator
    /// (psec `encode_pinblock_iso_3`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPIN``, then ``CryptoError/Code/invalidPAN`` (fewer than 13 digits).
    public static func encodeISO3(pin: String, pan: String) throws(CryptoError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return try encodeISO3(pin: pin, pan: pan, using: &generator)
    }

    /// Encodes a format 3 PIN block with fill digits (uniform in A...F) drawn from `generator`.
    public static func encodeISO3(
        pin: String, pan: String, using generator: inout some RandomNumberGenerator
    ) throws(CryptoError) -> [UInt8] {
        let digits = try pinDigits(pin)
        let pan = try panBlock(pan)
        let field = pinField(control: 3, pin: digits) { UInt8.random(in: 0xA...0xF, using: &generator) }
        return BigEndianBlock.bytes(field ^ pan)
    }

    /// Decodes a format 3 PIN block and returns the PIN (psec `decode_pinblock_iso_3`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPAN``, ``CryptoError/Code/invalidPINBlock`` (not 8 bytes),
    ///   ``CryptoError/Code/invalidPINBlockFormat``, ``CryptoError/Code/invalidPIN`` (length field or digits),
    ///   ``CryptoError/Code/invalidPINBlockFill`` (a fill digit below A).
    public static func decodeISO3(_ pinBlock: [UInt8], pan: String) throws(CryptoError) -> String {
        let pan = try panBlock(pan)
        let block = try block8(pinBlock)
        return try decodePINField(block ^ pan, control: 3) { $0 >= 0xA }
    }
}
