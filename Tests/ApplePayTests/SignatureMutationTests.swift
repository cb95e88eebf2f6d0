import ApplePay
import Foundation
import Testing

/// The BER signature parser on damaged input: every mutation of a real signature is refused with an
/// ``ApplePayError`` or, where it touches nothing the checks depend on, accepted — never a crash or another error.
@Suite("Apple Pay signature mutations")
struct SignatureMutationTests {
    /// SplitMix64: a fixed sequence, so a failure reproduces.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("random byte changes, truncations and insertions in a real signature never crash")
    func mutations() async throws {
        let fixture = RealTokenFixture.gala
        let original = try fixture.paymentData
        let bytes = Array(try #require(Data(base64Encoded: original.signature)))
        var random = SplitMix(state: 2021)
        var refused = 0
        for round in 0..<400 {
            var mutated = bytes
            switch round % 3 {
            case 0:
                mutated[Int.random(in: 0..<mutated.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            case 1: mutated.removeLast(Int.random(in: 1..<mutated.count, using: &random))
            default:
                mutated.insert(
                    UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0..<mutated.count, using: &random))
            }
            var paymentData = original
            paymentData.signature = Data(mutated).base64EncodedString()
            do {
                // A fresh replay store each round: only the signature is under test.
                _ = try await fixture.decryptor().decrypt(paymentData)
            } catch is ApplePayError {
                refused += 1
            }
        }
        // Truncations and insertions always break the BER; most single-byte changes break a check.
        #expect(refused > 300)
    }

    @Test("a signature whose SHA-256 parameters are absent (DER, re-signed) verifies like Apple's NULL ones (BER)")
    func digestParameters() async throws {
        let fixture = RealTokenFixture.gala
        let sha256WithNull: [UInt8] = [
            0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
        ]
        let sha256Absent: [UInt8] = [0x30, 0x0B, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        let real = Array(try #require(Data(base64Encoded: fixture.paymentData.signature)))
        #expect(Self.contains(real, sha256WithNull))
        let chain = try ThrowawayChain()
        let resigned = try chain.resign(fixture.paymentData, at: fixture.signingTime)
        let der = Array(try #require(Data(base64Encoded: resigned.signature)))
        #expect(Self.contains(der, sha256Absent))
        #expect(!Self.contains(der, sha256WithNull))
        #expect(der[1] != 0x80)  // definite length: DER
        _ = try await chain.decryptor(merchants: [fixture.identity], now: fixture.signingTime).decrypt(resigned)
    }

    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        bytes.indices.contains { Array(bytes[$0...].prefix(part.count)) == part }
    }
}
