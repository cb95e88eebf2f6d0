import ApplePay
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@Suite("Token service: the test PKI")
struct TestPaymentPKITests {
    static let nullValue: ArraySlice<UInt8> = [0x05, 0x00]
    // Written out here rather than taken from the module, so a wrong OID there fails these tests.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 29]
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 14]
    static let merchantIdentifier: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 32]

    @Test("the leaf and the intermediate carry Apple's marker extensions (value NULL), the root neither")
    func markers() throws {
        let pki = TokenServiceFixture.pki
        #expect(pki.leaf.extensions[oid: Self.leafMarker]?.value == Self.nullValue)
        #expect(pki.leaf.extensions[oid: Self.intermediateMarker] == nil)
        #expect(pki.intermediate.extensions[oid: Self.intermediateMarker]?.value == Self.nullValue)
        #expect(pki.intermediate.extensions[oid: Self.leafMarker] == nil)
        #expect(pki.root.extensions[oid: Self.leafMarker] == nil)
        #expect(pki.root.extensions[oid: Self.intermediateMarker] == nil)
        #expect(pki.leaf.issuer == pki.intermediate.subject)
        #expect(pki.intermediate.issuer == pki.root.subject)
        #expect(
            P256.Signing.PublicKey(pki.leaf.publicKey)?.rawRepresentation == pki.leafKey.publicKey.rawRepresentation)
    }

    @Test(
        "a PKI without markers leaves out the ones not asked for",
        arguments: [
            TestPaymentPKI.Markers.leaf, .intermediate, [],
        ])
    func withoutMarkers(markers: TestPaymentPKI.Markers) throws {
        let pki = try TestPaymentPKI(validity: TokenServiceFixture.validity, markers: markers)
        #expect((pki.leaf.extensions[oid: Self.leafMarker] != nil) == markers.contains(.leaf))
        #expect(
            (pki.intermediate.extensions[oid: Self.intermediateMarker] != nil)
                == markers.contains(.intermediate)
        )
    }

    @Test("the merchant identifier extension is encoded as in Apple's real merchant certificate")
    func merchantExtensionMatchesApple() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/gala-2021/certificate", withExtension: "pem"))
        let apple = try Certificate(pemEncoded: String(contentsOf: url, encoding: .utf8))
        let ours = try TokenServiceFixture.pki.issuePaymentProcessingCertificate(
            merchantIdentifier: "merchant.test.spreedly.123merchant", publicKey: apple.publicKey,
            validity: TokenServiceFixture.validity
        )
        let appleValue = try #require(apple.extensions[oid: Self.merchantIdentifier]?.value)
        #expect(ours.extensions[oid: Self.merchantIdentifier]?.value == appleValue)
        #expect(ours.issuer == TokenServiceFixture.pki.merchantCA.subject)
    }

    @Test(
        "openssl verifies the leaf and a merchant certificate up to the test root",
        .enabled(if: ExternalTool.openssl != nil))
    func opensslVerifiesChains() throws {
        let openssl = try #require(ExternalTool.openssl)
        let pki = TokenServiceFixture.pki
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ certificate: Certificate, _ name: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try certificate.serializeAsPEM().pemString.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let root = try write(pki.root, "root.pem")
        let attime = String(Int(TokenServiceFixture.signingTime.timeIntervalSince1970))
        for (certificate, issuer) in [
            (pki.leaf, pki.intermediate), (TokenServiceFixture.ecMerchant.certificate, pki.merchantCA),
            (TokenServiceFixture.rsaMerchant.certificate, pki.merchantCA),
        ] {
            let output = try ExternalTool.run(
                openssl,
                [
                    "verify", "-attime", attime, "-CAfile", root, "-untrusted", try write(issuer, "issuer.pem"),
                    try write(certificate, "certificate.pem"),
                ]
            )
            #expect(output.status == 0, "\(certificate.subject): \(output.text) \(output.standardError)")
        }
        // And a leaf from another PKI does not verify to this root.
        let other = try TestPaymentPKI(validity: TokenServiceFixture.validity)
        let output = try ExternalTool.run(
            openssl,
            [
                "verify", "-attime", attime, "-CAfile", root, "-untrusted", try write(other.intermediate, "issuer.pem"),
                try write(other.leaf, "certificate.pem"),
            ]
        )
        #expect(output.status != 0)
    }
}
