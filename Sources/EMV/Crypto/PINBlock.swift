/// ISO 9564-1 PIN blocks: formats 0, 2 and 3 (8 bytes, for TDES) and format 4 (16 bytes, AES).
///
/// Behaviour, including which inputs are rejected, follows psec 1.3.0 `pinblock`: a PIN is 4 to 12 ASCII
/// digits; formats 0 and 3 take a PAN of at least 13 digits and use the 12 digits before the check digit;
/// format 4 takes a PAN of 1 to 19 digits. Random fill comes from a caller-supplied generator, so tests can
/// be deterministic; the overloads without one use `SystemRandomNumberGenerator`.
///
/// Errors never contain the PIN, the PAN or PIN block bytes.
public enum PINBlock {
    /// The PIN's digits, checked to be 4 to 12 ASCII digits.
    static func pinDigits(_ pin: String) throws(CryptoError) -> PINDigits {
        let digits = withASCIIDigits(pin, lengths: 4...12) { characters in
            var nibbles: UInt64 = 0
            for (index, character) in characters.enumerated() {
                nibbles |= UInt64(character & 0xF) << (52 - 4 * index)
            }
            return PINDigits(nibbles: nibbles, count: characters.count)
        }
        guard let digits else { throw CryptoError(.invalidPIN, "a PIN is 4 to 12 ASCII digits") }
        return digits
    }

    /// A PIN's digits where a PIN field holds them (digit `i` at bits 52 - 4i), and how many there are.
    struct PINDigits {
        let nibbles: UInt64
        let count: Int
    }

    /// Calls `body` with the UTF-8 of `text` when it is only ASCII digits, as many as `lengths` allows; nil
    /// otherwise. Read in place: the arrays of digit values this replaced were an allocation per PIN block.
    static func withASCIIDigits<Result>(
        _ text: String, lengths: ClosedRange<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        var text = text
        return text.withUTF8 { characters in
            guard lengths.contains(characters.count),
                characters.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 })
            else { return nil }
            return body(characters)
        }
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
    static func panBlock(_ pan: String) throws(CryptoError) -> UInt64 {
        let block = withASCIIDigits(pan, lengths: 13...Int.max) { digits in
            digits[(digits.count - 13)..<(digits.count - 1)].reduce(0) { $0 << 4 | UInt64($1 & 0xF) }
        }
        guard let block else { throw CryptoError(.invalidPAN, "the PAN must be at least 13 ASCII digits") }
        return block
    }

    /// Checks an 8-byte PIN block and returns it as a big-endian integer.
    static func block8(_ pinBlock: [UInt8]) throws(CryptoError) -> UInt64 {
        guard pinBlock.count == 8 else {
            throw CryptoError(.invalidPINBlock, "the PIN block must have 8 bytes, not \(pinBlock.count)")
        }
        return BigEndianBlock.load(pinBlock)
    }
}
