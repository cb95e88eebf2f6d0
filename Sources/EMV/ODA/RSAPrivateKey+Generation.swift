import BigInt

extension RSAPrivateKey {
    /// Generates a key whose modulus is exactly `modulusLength` bytes, with primes found by trial division and
    /// Miller-Rabin tests with random bases.
    ///
    /// EMV keys are 1024 to 1984 bits for CA and issuer keys; shorter ones (down to 512 bits) are allowed for
    /// tests and for ICC keys. Slow for the largest sizes (seconds in release builds): tests ship
    /// pre-generated keys.
    ///
    /// - Parameters:
    ///   - modulusLength: modulus size in bytes, 64...248.
    ///   - exponent: `[0x03]` or `[0x01, 0x00, 0x01]`.
    ///   - generator: the randomness; pass a seeded generator for reproducible keys.
    /// - Throws: ``ODAError/invalidInput`` for an unsupported size or exponent.
    public static func generate(
        modulusLength: Int,
        exponent: [UInt8] = [0x03],
        using generator: inout some RandomNumberGenerator
    ) throws -> RSAPrivateKey {
        guard (RSAPublicKey.minimumModulusLength...RSAPublicKey.maximumModulusLength).contains(modulusLength) else {
            throw ODAError(.invalidInput, "modulus length \(modulusLength) outside 64...248 bytes")
        }
        guard exponent == [0x03] || exponent == [0x01, 0x00, 0x01] else {
            throw ODAError(.invalidInput, "exponent must be 3 or 65537")
        }
        let e = UInt(BigUInt(bigEndian: exponent))
        let bits = modulusLength * 8
        // Both primes have their top two bits set, so their product has exactly `bits` bits.
        let p = try generatePrime(bits: bits / 2, coprimeTo: e, using: &generator)
        var q = try generatePrime(bits: bits - bits / 2, coprimeTo: e, using: &generator)
        while q == p { q = try generatePrime(bits: bits - bits / 2, coprimeTo: e, using: &generator) }
        let key = try RSAPrivateKey(p: p, q: q, exponent: exponent)
        guard key.modulusLength == modulusLength else {
            throw ODAError(.keyGenerationFailed, "modulus came out \(key.modulusLength) bytes")
        }
        return key
    }

    /// Odd primes below 2000, for trial division before the expensive tests.
    static let smallPrimes: [UInt] = {
        var primes: [UInt] = []
        var candidate: UInt = 3
        while candidate < 2000 {
            if primes.allSatisfy({ candidate % $0 != 0 }) { primes.append(candidate) }
            candidate += 2
        }
        return primes
    }()

    /// A random prime of exactly `bits` bits (top two bits set) with `p - 1` coprime to the prime exponent `e`.
    static func generatePrime(
        bits: Int,
        coprimeTo e: UInt,
        using generator: inout some RandomNumberGenerator
    ) throws -> BigUInt {
        // Miller-Rabin rounds for an error probability below 2^-100 on random candidates (FIPS 186-4, C.3).
        let rounds = bits >= 512 ? 7 : 10
        for _ in 0..<100 {
            var start = BigUInt.randomInteger(withExactWidth: bits, using: &generator)
            start |= (BigUInt(1) << (bits - 2)) | 1
            // Sieve forward from `start` by keeping each small prime's residue.
            let residues = smallPrimes.map { UInt(start % BigUInt($0)) }
            let residueE = UInt(start % BigUInt(e))
            for offset in stride(from: UInt(0), to: UInt(bits) * 8, by: 2) {
                guard (residueE + offset) % e != 1 else { continue }
                var divisible = false
                for (prime, residue) in zip(smallPrimes, residues) where (residue + offset) % prime == 0 {
                    divisible = true
                    break
                }
                guard !divisible else { continue }
                let candidate = start + BigUInt(offset)
                guard candidate.bitWidth == bits else { break }
                if isProbablePrime(candidate, rounds: rounds, using: &generator) { return candidate }
            }
        }
        throw ODAError(.keyGenerationFailed, "no prime found")
    }

    /// Miller-Rabin with random bases in [2, n - 2]; `n` is odd and larger than the small primes.
    static func isProbablePrime(_ n: BigUInt, rounds: Int, using generator: inout some RandomNumberGenerator) -> Bool {
        for _ in 0..<rounds {
            let base = BigUInt.randomInteger(lessThan: n - 3, using: &generator) + 2
            guard n.isStrongProbablePrime(base) else { return false }
        }
        return true
    }
}
