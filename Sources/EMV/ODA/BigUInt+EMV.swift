import BigInt

// Byte-string conversions and modular exponentiation tuned for EMV RSA, where public exponents are 3 or 2^16+1.
extension BigUInt {
    /// Reads big-endian bytes (leading zeros allowed).
    init(bigEndian bytes: some Collection<UInt8>) {
        self = Array(bytes).withUnsafeBytes { BigUInt($0) }
    }

    /// Big-endian bytes left-padded with zeros to `length`; nil when the value needs more bytes.
    func bigEndianBytes(length: Int) -> [UInt8]? {
        let byteCount = (bitWidth + 7) / 8
        guard byteCount <= length else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        var index = length - 1
        for word in words {
            var w = word
            for _ in 0..<(Word.bitWidth / 8) {
                guard index >= 0 else { break }
                bytes[index] = UInt8(truncatingIfNeeded: w)
                w >>= 8
                index -= 1
            }
        }
        return bytes
    }

    /// `self^exponent mod modulus`.
    ///
    /// Left to right over the exponent's bits, so e = 3 costs two multiplications and two reductions and
    /// e = 65537 seventeen of each (BigInt's own `power(_:modulus:)` walks every bit of a machine word and would
    /// square 64 times for e = 3). Long (private, CRT) exponents take 4-bit windows: a quarter of the
    /// multiplications.
    func emvPower(_ exponent: BigUInt, modulus: BigUInt) -> BigUInt {
        guard !exponent.isZero else { return modulus == 1 ? 0 : 1 }
        let base = self < modulus ? self : self % modulus
        let bitCount = exponent.bitWidth
        guard bitCount > 64 else {
            var result = base
            for bit in stride(from: bitCount - 2, through: 0, by: -1) {
                result = (result * result) % modulus
                if exponent[bitAt: bit] { result = (result * base) % modulus }
            }
            return result
        }
        // powers[i] = base^i for i in 0..<16
        var powers = [BigUInt(1), base]
        for _ in 2..<16 { powers.append((powers[powers.count - 1] * base) % modulus) }
        var result = BigUInt(1)
        for window in stride(from: (bitCount - 1) / 4, through: 0, by: -1) {
            for _ in 0..<4 { result = (result * result) % modulus }
            var digit = 0
            for bit in stride(from: window * 4 + 3, through: window * 4, by: -1) {
                digit = digit << 1 | (exponent[bitAt: bit] ? 1 : 0)
            }
            if digit != 0 { result = (result * powers[digit]) % modulus }
        }
        return result
    }
}
