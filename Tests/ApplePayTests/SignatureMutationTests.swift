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

    @Test("signed attributes sent out of DER order verify through the DER re-encoding; a changed one still fails")
    func signedAttributesNotInDEROrder() async throws {
        let fixture = RealTokenFixture.gala
        let chain = try ThrowawayChain()
        let resigned = try chain.resign(fixture.paymentData, at: fixture.signingTime)
        var der = Array(try #require(Data(base64Encoded: resigned.signature)))
        // The signed attributes: `[0]` (A0 len, or A0 81 len) holding SEQUENCEs, the first the contentType attribute.
        let contentType: [UInt8] = [0x30, 0x18, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]
        let first = try #require(der.indices.first { Array(der[$0...].prefix(contentType.count)) == contentType })
        #expect(der[first - 2] == 0xA0 || (der[first - 3] == 0xA0 && der[first - 2] == 0x81))
        let end = first + Int(der[first - 1])
        var attributes: [[UInt8]] = []
        var position = first
        while position < end {
            #expect(der[position] == 0x30 && der[position + 1] < 0x80)
            let length = 2 + Int(der[position + 1])
            attributes.append(Array(der[position..<(position + length)]))
            position += length
        }
        #expect(attributes.count >= 3)
        // The first attribute last: the same bytes and lengths, no longer in DER's SET OF order.
        der.replaceSubrange(first..<end, with: (attributes.dropFirst() + [attributes[0]]).flatMap { $0 })
        var reordered = resigned
        reordered.signature = Data(der).base64EncodedString()
        let decryptor = chain.decryptor(merchants: [try fixture.identity], now: fixture.signingTime)
        _ = try await decryptor.decrypt(reordered)

        // Out of order and one byte of the signing time changed: neither encoding verifies.
        let signingTime = try #require(der.indices.first { der[$0] == 0x17 && der[$0 + 1] == 0x0D && $0 > first })
        der[signingTime + 4] ^= 0x01
        reordered.signature = Data(der).base64EncodedString()
        await #expect(throws: ApplePayError.self) { try await decryptor.decrypt(reordered) }
    }

    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        bytes.indices.contains { Array(bytes[$0...].prefix(part.count)) == part }
    }
}
