import BigInt

/// Montgomery multiplication over a fixed odd modulus, on machine-word limbs: the private-key exponentiations of RSA
/// (a card's CDA and fDDA signatures, the test CA's certificates) without BigInt's division after every product.
///
/// Values live in Montgomery form (a·R mod n, R = 2^(64·limbs)); ``power(_:_:)`` converts in and out and works in
/// one buffer allocated per call. Checked against `BigUInt.power(_:modulus:)` by the tests, and every RSA signature
/// is verified with the public key before it leaves ``RSAPrivateKey/sign(_:)``.
struct MontgomeryModulus {
    /// The modulus, least significant limb first.
    private let modulus: [UInt]
    /// -n⁻¹ mod 2^64.
    private let inverse: UInt
    /// R² mod n, to bring values into Montgomery form.
    private let rSquared: [UInt]
    private let original: BigUInt

    /// Prepares an odd modulus above 1; nil for any other.
    init?(_ n: BigUInt) {
        guard n > 1, n[bitAt: 0] else { return nil }
        let limbs = Array(n.words)
        original = n
        modulus = limbs
        // Newton's iteration doubles the correct low bits of n⁻¹ mod 2^64 each step: 1 → 64 in six steps.
        var x: UInt = 1
        for _ in 0..<6 { x = x &* (2 &- limbs[0] &* x) }
        inverse = 0 &- x
        rSquared = Self.limbs((BigUInt(1) << (2 * UInt.bitWidth * limbs.count)) % n, count: limbs.count)
    }

    private static func limbs(_ value: BigUInt, count: Int) -> [UInt] {
        var words = Array(value.words.prefix(count))
        words += repeatElement(0, count: count - words.count)
        return words
    }

    /// `base^exponent mod n`, with 4-bit fixed windows.
    func power(_ base: BigUInt, _ exponent: BigUInt) -> BigUInt {
        let k = modulus.count
        let baseLimbs = Self.limbs(base < original ? base : base % original, count: k)
        let exponentWords = Array(exponent.words)
        let windows = (exponent.bitWidth + 3) / 4
        // One buffer: the 16-entry table, the result, the product scratch (k + 1), the constant 1 and the base.
        var buffer = [UInt](repeating: 0, count: 16 * k + k + (k + 1) + k + k)
        buffer.withUnsafeMutableBufferPointer { buffer in
            modulus.withUnsafeBufferPointer { n in
                rSquared.withUnsafeBufferPointer { r2 in
                    guard let table = buffer.baseAddress, let n = n.baseAddress, let r2 = r2.baseAddress else {
                        return
                    }
                    let result = table + 16 * k
                    let scratch = result + k
                    let one = scratch + k + 1
                    let value = one + k
                    one[0] = 1
                    for index in 0..<k { value[index] = baseLimbs[index] }
                    let product = Product(modulus: n, inverse: inverse, count: k, scratch: scratch)
                    // table[i] = base^i in Montgomery form.
                    product.multiply(one, r2, into: table)
                    product.multiply(value, r2, into: table + k)
                    for index in 2..<16 {
                        product.multiply(table + (index - 1) * k, table + k, into: table + index * k)
                    }
                    result.update(from: table, count: k)
                    for window in stride(from: windows - 1, through: 0, by: -1) {
                        for _ in 0..<4 { product.multiply(result, result, into: result) }
                        let bit = window * 4
                        let digit = Int(exponentWords[bit / UInt.bitWidth] >> UInt(bit % UInt.bitWidth) & 0xF)
                        if digit != 0 { product.multiply(result, table + digit * k, into: result) }
                    }
                    product.multiply(result, one, into: result)
                }
            }
        }
        return BigUInt(words: buffer[(16 * k)..<(17 * k)])
    }

    /// One multiplier's fixed inputs: the modulus limbs, -n⁻¹ and a scratch of k + 1 limbs.
    private struct Product {
        let modulus: UnsafePointer<UInt>
        let inverse: UInt
        let count: Int
        let scratch: UnsafeMutablePointer<UInt>

        /// x·y + z + w as two limbs; cannot overflow: (2^64-1)² + 2·(2^64-1) = 2^128 - 1.
        @inline(__always)
        static func multiplyAdd(_ x: UInt, _ y: UInt, _ z: UInt, _ w: UInt) -> (high: UInt, low: UInt) {
            let (high, low) = x.multipliedFullWidth(by: y)
            let (sum1, overflow1) = low.addingReportingOverflow(z)
            let (sum2, overflow2) = sum1.addingReportingOverflow(w)
            return (high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0), sum2)
        }

        /// out = a·b·R⁻¹ mod n (FIOS: finely integrated operand scanning), for a, b < n; `out` may be `a` or `b`.
        func multiply(_ a: UnsafePointer<UInt>, _ b: UnsafePointer<UInt>, into out: UnsafeMutablePointer<UInt>) {
            let k = count
            let n = modulus
            let t = scratch
            t.update(repeating: 0, count: k + 1)
            for i in 0..<k {
                // t += a · b[i], then t = (t + m · n) / 2^64 with m chosen so that the low limb vanishes, fused into
                // one pass (FIOS).
                let bi = b[i]
                var (carry, low) = Self.multiplyAdd(a[0], bi, t[0], 0)
                let m = low &* inverse
                var (reductionCarry, _) = Self.multiplyAdd(m, n[0], low, 0)
                for j in 1..<k {
                    (carry, low) = Self.multiplyAdd(a[j], bi, t[j], carry)
                    (reductionCarry, t[j - 1]) = Self.multiplyAdd(m, n[j], low, reductionCarry)
                }
                let (sum, overflow1) = t[k].addingReportingOverflow(carry)
                let (top, overflow2) = sum.addingReportingOverflow(reductionCarry)
                t[k - 1] = top
                t[k] = (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
            }
            // t is below 2n: subtract n once when it is not below n.
            var below = false  // equal to n counts as not below
            if t[k] == 0 {
                for index in stride(from: k - 1, through: 0, by: -1) where t[index] != n[index] {
                    below = t[index] < n[index]
                    break
                }
            }
            if below {
                out.update(from: t, count: k)
            } else {
                var borrow = false
                for j in 0..<k {
                    let (difference1, borrow1) = t[j].subtractingReportingOverflow(n[j])
                    let (difference2, borrow2) = difference1.subtractingReportingOverflow(borrow ? 1 : 0)
                    out[j] = difference2
                    borrow = borrow1 || borrow2
                }
            }
        }
    }
}
