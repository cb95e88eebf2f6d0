/// ISO 9564-1 format 0 (ANSI X9.8) and format 2 (the plaintext block of the EMV VERIFY command).
extension PINBlock {
    /// Encodes a format 0 PIN block: `0`, PIN length, PIN, `F` fill, XORed with the PAN block
    /// (psec `encode_pinblock_iso_0`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPIN``, then ``CryptoError/Code/invalidPAN`` (fewer than 13 digits).
    public static func encodeISO0(pin: String, pan: String) throws(CryptoError) -> [UInt8] {
        BigEndianBlock.bytes(
            try withUTF8(pin, pan) { (pin, pan) throws(CryptoError) in try encodeISO0Block(pinUTF8: pin, panUTF8: pan) }
        )
    }

    /// ``encodeISO0(pin:pan:)`` from the UTF-8 of the PIN and PAN, as a block (the crypto batch: no array).
    package static func encodeISO0Block(
        pinUTF8 pin: UnsafeBufferPointer<UInt8>, panUTF8 pan: UnsafeBufferPointer<UInt8>
    ) throws(CryptoError) -> UInt64 {
        let digits = try pinDigits(pin)
        let pan = try panBlock(pan)
        return pinField(control: 0, pin: digits) { 0xF } ^ pan
    }

    /// Decodes a format 0 PIN block and returns the PIN (psec `decode_pinblock_iso_0`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPAN``, ``CryptoError/Code/invalidPINBlock`` (not 8 bytes),
    ///   ``CryptoError/Code/invalidPINBlockFormat``, ``CryptoError/Code/invalidPIN`` (length field or digits),
    ///   ``CryptoError/Code/invalidPINBlockFill``.
    public static func decodeISO0(_ pinBlock: [UInt8], pan: String) throws(CryptoError) -> String {
        try withUTF8(pan) { (pan) throws(CryptoError) in try decodeISO0(pinBlock, panUTF8: pan) }
    }

    /// ``decodeISO0(_:pan:)`` with the PAN as UTF-8 (the crypto batch: no `String` per PAN).
    package static func decodeISO0(_ pinBlock: [UInt8], panUTF8 pan: UnsafeBufferPointer<UInt8>) throws(CryptoError)
        -> String
    {
        let pan = try panBlock(pan)
        let block = try block8(pinBlock)
        return try decodePINField(block ^ pan, control: 0) { $0 == 0xF }
    }

    /// Encodes a format 2 PIN block: `2`, PIN length, PIN, `F` fill; no PAN (psec `encode_pinblock_iso_2`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPIN``.
    public static func encodeISO2(pin: String) throws(CryptoError) -> [UInt8] {
        BigEndianBlock.bytes(try withUTF8(pin) { (pin) throws(CryptoError) in try encodeISO2Block(pinUTF8: pin) })
    }

    /// ``encodeISO2(pin:)`` from the PIN's UTF-8, as a block (the crypto batch: no array).
    package static func encodeISO2Block(pinUTF8 pin: UnsafeBufferPointer<UInt8>) throws(CryptoError) -> UInt64 {
        pinField(control: 2, pin: try pinDigits(pin)) { 0xF }
    }

    /// Decodes a format 2 PIN block (psec `decode_pinblock_iso_2`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPINBlock``, ``CryptoError/Code/invalidPINBlockFormat``,
    ///   ``CryptoError/Code/invalidPIN``, ``CryptoError/Code/invalidPINBlockFill``.
    public static func decodeISO2(_ pinBlock: [UInt8]) throws(CryptoError) -> String {
        try decodePINField(try block8(pinBlock), control: 2) { $0 == 0xF }
    }
}
