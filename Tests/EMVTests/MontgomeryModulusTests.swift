import BigInt
import Testing

@testable import EMV

/// The Montgomery exponentiation behind RSA private-key operations agrees with BigInt's own `power(_:modulus:)` on
/// odd moduli of every size EMV uses, and `emvPower` still serves even moduli.
@Suite struct MontgomeryModulusTests {
    static func random(bits: Int, _ generator: inout some RandomNumberGenerator) -> BigUInt {
        BigUInt.randomInteger(withExactWidth: bits, using: &generator)
    }

    @Test(arguments: [64, 65, 127, 256, 384, 512, 576, 704, 1024, 1984])
    func agreesWithBigIntOnOddModuli(bits: Int) throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4 {
            let modulus = Self.random(bits: bits, &generator) | 1
            let base = BigUInt.randomInteger(lessThan: modulus, using: &generator)
            let exponent = Self.random(bits: bits, &generator)
            let montgomery = try #require(MontgomeryModulus(modulus))
            #expect(montgomery.power(base, exponent) == base.power(exponent, modulus: modulus))
            #expect(base.emvPower(exponent, modulus: modulus) == base.power(exponent, modulus: modulus))
            // A base at or above the modulus is reduced first.
            #expect(montgomery.power(base + modulus, exponent) == base.power(exponent, modulus: modulus))
        }
    }

    @Test func edgeCases() throws {
        let modulus = (BigUInt(1) << 512) - 1  // all limbs FFFF…: the largest carries
        let montgomery = try #require(MontgomeryModulus(modulus))
        #expect(montgomery.power(modulus - 1, 3) == (modulus - 1).power(3, modulus: modulus))
        #expect(montgomery.power(0, 5) == 0)
        #expect(montgomery.power(7, 0) == 1)
        #expect(montgomery.power(modulus - 1, modulus - 2) == (modulus - 1).power(modulus - 2, modulus: modulus))
        #expect(MontgomeryModulus(BigUInt(1) << 100) == nil, "even moduli are not for Montgomery")
        #expect(MontgomeryModulus(1) == nil)
        let even = (BigUInt(1) << 200) + 6
        let exponent = (BigUInt(1) << 100) + 12_345
        #expect(BigUInt(3).emvPower(exponent, modulus: even) == BigUInt(3).power(exponent, modulus: even))
    }
}
