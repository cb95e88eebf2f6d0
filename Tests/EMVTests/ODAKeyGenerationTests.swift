import EMV
import Foundation
import Testing

@Suite struct ODAKeyGenerationTests {
    @Test(arguments: [(64, [UInt8]([0x03])), (96, [0x01, 0x00, 0x01])])
    func generatesWorkingKeys(modulusLength: Int, exponent: [UInt8]) throws {
        var rng = SeededGenerator(seed: UInt64(modulusLength))
        let key = try RSAPrivateKey.generate(modulusLength: modulusLength, exponent: exponent, using: &rng)
        #expect(key.publicKey.modulusLength == modulusLength)
        #expect(key.publicKey.modulus[0] >= 0x80)
        #expect(key.publicKey.exponent == exponent)
        // A raw signature opens to the message; the message has to be below the modulus.
        let message = [0x6A] + [UInt8](repeating: 0x5A, count: modulusLength - 1)
        #expect(try key.publicKey.recover(key.sign(message)) == message)
    }

    @Test func seededGenerationIsReproducible() throws {
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        let first = try RSAPrivateKey.generate(modulusLength: 64, using: &a)
        let second = try RSAPrivateKey.generate(modulusLength: 64, using: &b)
        #expect(first.publicKey == second.publicKey)
    }

    @Test func rejectsUnsupportedSizesAndExponents() {
        var rng = SeededGenerator(seed: 1)
        #expect(throws: ODAError.invalidInput) { try RSAPrivateKey.generate(modulusLength: 63, using: &rng) }
        #expect(throws: ODAError.invalidInput) { try RSAPrivateKey.generate(modulusLength: 249, using: &rng) }
        #expect(throws: ODAError.invalidInput) {
            try RSAPrivateKey.generate(modulusLength: 64, exponent: [0x05], using: &rng)
        }
    }

    @Test func privateKeyJSONRoundTripsAndDetectsInconsistency() throws {
        var rng = SeededGenerator(seed: 7)
        let key = try RSAPrivateKey.generate(modulusLength: 64, using: &rng)
        let json = try JSONEncoder().encode(key)
        let decoded = try JSONDecoder().decode(RSAPrivateKey.self, from: json)
        #expect(decoded.publicKey == key.publicKey)
        #expect(!key.description.contains(key.publicKey.modulus.hexString))

        var object = try #require(JSONSerialization.jsonObject(with: json) as? [String: String])
        object["modulus"] = "C" + String(object["modulus"]!.dropFirst())
        let corrupted = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: ODAError.invalidKey) { try JSONDecoder().decode(RSAPrivateKey.self, from: corrupted) }
    }

    @Test func shippedKeysAreConsistent() throws {
        let keys = ODAFixtures.keys
        #expect(keys.ca.publicKey.key.modulusLength == 248)
        #expect(try keys.issuer("issuer1984e3").modulusLength == 248)
        #expect(try keys.issuer("issuer1152e65537").publicKey.exponent == [0x01, 0x00, 0x01])
        #expect(try keys.icc("icc1024e3").modulusLength == 128)
        #expect(try keys.icc("icc768e65537").modulusLength == 96)
    }

    /// Writes Tests/EMVTests/Vectors/oda-test-keys.json; run once with
    /// `ODA_WRITE_TEST_KEYS=<path> swift test --filter writeShippedKeys`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ODA_WRITE_TEST_KEYS"] != nil))
    func writeShippedKeys() throws {
        let path = try #require(ProcessInfo.processInfo.environment["ODA_WRITE_TEST_KEYS"])
        var rng = SystemRandomNumberGenerator()
        let ca = try TestCertificateAuthority.generate(rid: [0xF0, 0, 0, 0, 0x01], index: 0x01, using: &rng)
        let keys = ODATestKeys(
            provenance: "Generated once by ODAKeyGenerationTests.writeShippedKeys (Tests/EMVTests/ODAKeyGenerationTests"
                + ".swift) with RSAPrivateKey.generate and SystemRandomNumberGenerator; test keys only, never used "
                + "with real cards. RID F000000001 is outside the registered payment-system RIDs.",
            ca: ca,
            issuers: [
                "issuer1984e3": try .generate(modulusLength: 248, exponent: [0x03], using: &rng),
                "issuer1152e65537": try .generate(modulusLength: 144, exponent: [0x01, 0x00, 0x01], using: &rng),
            ],
            iccs: [
                "icc1024e3": try .generate(modulusLength: 128, exponent: [0x03], using: &rng),
                "icc768e65537": try .generate(modulusLength: 96, exponent: [0x01, 0x00, 0x01], using: &rng),
            ]
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(keys).write(to: URL(fileURLWithPath: path))
    }
}
