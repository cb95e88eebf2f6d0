@testable import EMV
import Testing

/// The private operation runs in BoringSSL for keys of 1024 bits and more and in BigInt below: both must give the
/// same raw RSA result.
@Suite struct RSAPrivateKeyTests {
    @Test(arguments: ["icc1024e3"])
    func boringSSLAndBigIntAgreeForICCKeys(_ name: String) throws {
        try agree(ODAFixtures.keys.icc(name), expectBoringSSL: true)
    }

    @Test(arguments: ["issuer1984e3", "issuer1152e65537"])
    func boringSSLAndBigIntAgreeForIssuerKeys(_ name: String) throws {
        try agree(ODAFixtures.keys.issuer(name), expectBoringSSL: true)
    }

    @Test func smallKeysStayOnBigInt() throws {
        try agree(ODAFixtures.keys.icc("icc768e65537"), expectBoringSSL: false)
    }

    private func agree(_ key: RSAPrivateKey, expectBoringSSL: Bool) throws {
        #expect((key.boringSSL != nil) == expectBoringSSL)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3 {
            // An EMV frame: 6A header, random body, BC trailer; always below the modulus (whose top bit is set).
            let message = [0x6A] + (0..<(key.modulusLength - 2)).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0xBC]
            let signature = try key.sign(message)
            #expect(try key.bigIntSignature(message) == signature)
            #expect(try key.publicKey.recover(signature) == message)
        }
    }
}
