/// DES key parity: each key byte's low bit is a parity bit that makes the byte's bit count odd.
extension Array where Element == UInt8 {
    /// The key with each byte's low bit set so the byte has odd parity (pyemv/psec `adjust_key_parity`).
    public func adjustedToOddParity() -> [UInt8] {
        map { $0.nonzeroBitCount & 1 == 1 ? $0 : $0 ^ 1 }
    }

    /// Whether every byte has odd parity (true for an empty array).
    public var hasOddParity: Bool {
        allSatisfy { $0.nonzeroBitCount & 1 == 1 }
    }

    /// The key with `variant` applied: the first byte of each 8-byte part XORed with `variant * 8`
    /// (psec `des.apply_key_variant`, the variants of legacy HSM key types).
    ///
    /// - Throws: ``CryptoError/Code/invalidKeyLength`` unless the key has 8, 16 or 24 bytes;
    ///   ``CryptoError/Code/invalidKeyVariant`` unless `variant` is in 0...31.
    public func applyingKeyVariant(_ variant: Int) throws(CryptoError) -> [UInt8] {
        guard count == 8 || count == 16 || count == 24 else {
            throw CryptoError(.invalidKeyLength, "a DES key has 8, 16 or 24 bytes, not \(count)")
        }
        guard (0...31).contains(variant) else {
            throw CryptoError(.invalidKeyVariant, "a key variant is in 0...31, not \(variant)")
        }
        var key = self
        for index in Swift.stride(from: 0, to: count, by: 8) {
            key[index] ^= UInt8(variant * 8)
        }
        return key
    }
}
