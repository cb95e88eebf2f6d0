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
        let (digits, pan) = try withUTF8(pin, pan) { (pin, pan) throws(CryptoError) in
            (try pinDigits(pin), try panBlock(pan))
        }
        var fill = fillDigits(using: &generator)
        let field = pinField(control: 3, pin: digits) {
            defer { fill /= 6 }
            return 0xA + UInt8(truncatingIfNeeded: fill % 6)
        }
        return BigEndianBlock.bytes(field ^ pan)
    }

    /// A number uniform below 6¹⁴ whose base-6 digits are the (at most 14) fill digits: one 64-bit draw, taken
    /// unless it falls in the 2⁶⁴ mod 6¹⁴ values that would bias it (a chance of 3 in 10¹⁰). A draw per digit,
    /// through the generic `random(in:using:)`, was most of this function's time.
    static func fillDigits(using generator: inout some RandomNumberGenerator) -> UInt64 {
        let range: UInt64 = 78_364_164_096  // 6^14
        let biased = (0 &- range) % range  // 2^64 mod range
        var draw: UInt64
        repeat { draw = generator.next() } while draw < biased
        return draw % range
    }

    /// Decodes a format 3 PIN block and returns the PIN (psec `decode_pinblock_iso_3`).
    ///
    /// - Throws: ``CryptoError/Code/invalidPAN``, ``CryptoError/Code/invalidPINBlock`` (not 8 bytes),
    ///   ``CryptoError/Code/invalidPINBlockFormat``, ``CryptoError/Code/invalidPIN`` (length field or digits),
    ///   ``CryptoError/Code/invalidPINBlockFill`` (a fill digit below A).
    public static func decodeISO3(_ pinBlock: [UInt8], pan: String) throws(CryptoError) -> String {
        let pan = try withUTF8(pan, panBlock)
        let block = try block8(pinBlock)
        return try decodePINField(block ^ pan, control: 3) { $0 >= 0xA }
    }
}
