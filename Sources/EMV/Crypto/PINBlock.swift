/// ISO 9564-1 PIN blocks: formats 0, 2 and 3 (8 bytes, for TDES) and format 4 (16 bytes, AES).
///
/// Behaviour, including which inputs are rejected, follows psec 1.3.0 `pinblock`: a PIN is 4 to 12 ASCII
/// digits; formats 0 and 3 take a PAN of at least 13 digits and use the 12 digits before the check digit;
/// format 4 takes a PAN of 1 to 19 digits. Random fill comes from a caller-supplied generator, so tests can
/// be deterministic; the overloads without one use `SystemRandomNumberGenerator`.
///
/// Errors never contain the PIN, the PAN or PIN block bytes.
public enum PINBlock {
    /// The PIN's digits (its UTF-8), checked to be 4 to 12 ASCII digits.
    ///
    /// PINs and PANs are read as their UTF-8 bytes in place, through ``withUTF8(_:_:)``.
    static func pinDigits(_ pin: UnsafeBufferPointer<UInt8>) throws(CryptoError) -> PINDigits {
        guard isASCIIDigits(pin, lengths: 4...12) else {
            throw CryptoError(.invalidPIN, "a PIN is 4 to 12 ASCII digits")
        }
        var nibbles: UInt64 = 0
        for (index, character) in pin.enumerated() {
            nibbles |= UInt64(character & 0xF) << (52 - 4 * index)
        }
        return PINDigits(nibbles: nibbles, count: pin.count)
    }

    /// Runs `body` with the UTF-8 of `text`, for the `String` API over the functions that read bytes.
    static func withUTF8<Result>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        var text = text
        return try text.withUTF8 { bytes in Swift.Result { () throws(CryptoError) in try body(bytes) } }.get()
    }

    /// ``withUTF8(_:_:)`` for two strings.
    static func withUTF8<Result>(
        _ first: String, _ second: String,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        try withUTF8(first) { (first) throws(CryptoError) in
            try withUTF8(second) { (second) throws(CryptoError) in try body(first, second) }
        }
    }

    /// A PIN's digits where a PIN field holds them (digit `i` at bits 52 - 4i), and how many there are.
    struct PINDigits {
        let nibbles: UInt64
        let count: Int
    }

    /// Whether `text` (UTF-8) is only ASCII digits, as many as `lengths` allows. (Read in place: the arrays of
    /// digit values this replaced were an allocation per PIN block.)
    static func isASCIIDigits(_ text: UnsafeBufferPointer<UInt8>, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.count) && text.allSatisfy(BCD.isDigit)
    }

    /// The first 8 bytes of a clear PIN field: control nibble, PIN length, PIN digits, then 14 - length fill
    /// nibbles from `fill`.
    static func pinField(control: UInt64, pin: PINDigits, fill: () -> UInt8) -> UInt64 {
        var field = control << 60 | UInt64(pin.count) << 56 | pin.nibbles
        for index in pin.count..<14 {
            field |= UInt64(fill() & 0xF) << (52 - 4 * index)
        }
        return field
    }

    /// Reads back a clear PIN field, checking in psec's order: control field, PIN length, fill, digits.
    static func decodePINField(
        _ field: UInt64, control: UInt64, isFill: (UInt8) -> Bool
    ) throws(CryptoError) -> String {
        guard field >> 60 == control else {
            throw CryptoError(.invalidPINBlockFormat, "the control field is \(field >> 60), not \(control)")
        }
        let length = Int(field >> 56 & 0xF)
        guard (4...12).contains(length) else {
            throw CryptoError(.invalidPIN, "the PIN length field is \(length), not 4...12")
        }
        func nibble(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: field >> (52 - 4 * index)) & 0xF }
        for index in length..<14 where !isFill(nibble(index)) {
            throw CryptoError(.invalidPINBlockFill, "the fill digits are not those of the format")
        }
        for index in 0..<length where nibble(index) > 9 {
            throw CryptoError(.invalidPIN, "the PIN digits are not all decimal")
        }
        // Written in place: at most 12 ASCII digits make a small string, with no allocation (appending digit by
        // digit grew a heap buffer).
        return String(unsafeUninitializedCapacity: length) { buffer in
            for index in 0..<length { buffer[index] = UInt8(ascii: "0") + nibble(index) }
            return length
        }
    }

    /// The PAN block of formats 0 and 3: four zero nibbles, then the 12 rightmost PAN digits excluding the
    /// check digit. The PAN must be at least 13 digits (psec sets no upper limit).
    static func panBlock(_ pan: UnsafeBufferPointer<UInt8>) throws(CryptoError) -> UInt64 {
        guard isASCIIDigits(pan, lengths: 13...Int.max) else {
            throw CryptoError(.invalidPAN, "the PAN must be at least 13 ASCII digits")
        }
        return pan.dropFirst(pan.count - 13).prefix(12).reduce(0) { $0 << 4 | UInt64($1 & 0xF) }
    }

    /// Checks an 8-byte PIN block and returns it as a big-endian integer.
    static func block8(_ pinBlock: [UInt8]) throws(CryptoError) -> UInt64 {
        guard pinBlock.count == 8 else {
            throw CryptoError(.invalidPINBlock, "the PIN block must have 8 bytes, not \(pinBlock.count)")
        }
        return BigEndianBlock.load(pinBlock)
    }
}
