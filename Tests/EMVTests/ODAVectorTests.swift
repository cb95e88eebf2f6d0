import EMV
import Foundation
import Testing

/// Published data: payment-system CA public keys and the openemv/emv-utils RSA test vectors
/// (Vectors/ca-public-keys.json, Vectors/oda-emv-utils.json, provenance in the files).
@Suite struct ODAVectorTests {
    struct ExpectedCertificate: Decodable {
        var issuerIdentifier: String?
        var applicationPAN: String?
        var expirationDate: String
        var serialNumber: String
        var hashAlgorithmIndicator: String
        var publicKeyAlgorithmIndicator: String
        var publicKeyLength: Int
        var publicKeyExponentLength: Int
        var modulus: String
        var hashResult: String?
    }

    /// One card's published data; fields a case does not have are nil.
    struct Case: Decodable {
        var caRID: String
        var caIndex: String
        var pan: String
        var transactionDate: String?
        var issuerCertificate: String
        var issuerCertificateTampered: String?
        var issuerRemainder: String
        var issuerExponent: String
        var issuerExponentWrong: String?
        var expectedIssuer: ExpectedCertificate
        var signedStaticApplicationData: String?
        var signedStaticApplicationDataTampered: String?
        var expectedStaticData: [String: String]?
        var iccCertificate: String
        var iccCertificateTampered: String?
        var iccRemainder: String
        var iccExponent: String
        var expectedICC: ExpectedCertificate
        var signedDynamicApplicationData: String?
        var signedDynamicApplicationDataTampered: String?
        var unpredictableNumber: String?
        var expectedDynamicData: [String: String]?
    }

    struct File: Decodable {
        var provenance: String
        var visa: Case
        var mastercardCDA: Case
    }

    static let vectors: File = {
        do {
            return try JSONDecoder().decode(File.self, from: VectorFiles.data("oda-emv-utils"))
        } catch {
            fatalError("oda-emv-utils.json: \(error)")
        }
    }()

    /// Bytes of a hex field the case must have.
    func bytes(_ text: String?, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try [UInt8](try #require(text, sourceLocation: sourceLocation), sourceLocation: sourceLocation)
    }

    static func caKey(rid: String, index: String) throws -> CAPublicKey {
        let list = try CAPublicKeyList(jsonData: VectorFiles.data("ca-public-keys"))
        return try list.key(rid: [UInt8](rid), index: try #require([UInt8](index).first))
    }

    func expectContents(_ contents: PublicKeyCertificateContents, _ expected: ExpectedCertificate) throws {
        let identifier = try #require(expected.issuerIdentifier ?? expected.applicationPAN)
        #expect(contents.identifier == (try [UInt8](identifier)))
        #expect(contents.expirationDate == (try [UInt8](expected.expirationDate)))
        #expect(contents.serialNumber == (try [UInt8](expected.serialNumber)))
        #expect([contents.hashAlgorithmIndicator] == (try [UInt8](expected.hashAlgorithmIndicator)))
        #expect([contents.publicKeyAlgorithmIndicator] == (try [UInt8](expected.publicKeyAlgorithmIndicator)))
        #expect(contents.publicKeyLength == expected.publicKeyLength)
        #expect(contents.exponentLength == expected.publicKeyExponentLength)
        if let hash = expected.hashResult { #expect(contents.hashResult == (try [UInt8](hash))) }
        // The PAN (ICC certificates) never shows in descriptions.
        #expect(!contents.description.contains(identifier.prefix(8)))
    }

    @Test func caPublicKeyListLoadsWithVerifiedChecksums() throws {
        let list = try CAPublicKeyList(jsonData: VectorFiles.data("ca-public-keys"))
        #expect(list.keys.count == 30)
        #expect(list.provenance?.contains("openemv/emv-utils") == true)
        let visa94 = try list.key(rid: [0xA0, 0, 0, 0, 0x03], index: 0x94)
        #expect(visa94.key.modulusLength == 248)
        #expect(visa94.checksum == (try [UInt8]("C4A3C43CCF87327D136B804160E47D43B60E6E0F")))
        let mastercardF5 = try list.key(rid: [0xA0, 0, 0, 0, 0x04], index: 0xF5)
        #expect(mastercardF5.key.exponent == [0x01, 0x00, 0x01])
        // Save and load again: same keys, same order.
        let reloaded = try CAPublicKeyList(jsonData: list.jsonData())
        #expect(reloaded.keys == list.keys)
        #expect(reloaded.provenance == list.provenance)
    }

    @Test func visaCA94IssuerCertificate() throws {
        let v = Self.vectors.visa
        let ca = try Self.caKey(rid: v.caRID, index: v.caIndex)
        let issuer = try IssuerPublicKeyCertificate(recovering: bytes(v.issuerCertificate), with: ca)
        try expectContents(issuer.contents, v.expectedIssuer)
        #expect(issuer.contents.expiration == (try CertificateExpiration(month: 12, year: 2031)))
        let key = try issuer.verify(
            remainder: bytes(v.issuerRemainder),
            exponent: bytes(v.issuerExponent),
            pan: bytes(v.pan),
            on: ODAFixtures.date(2025, 5, 6)
        )
        #expect(key.modulus == (try [UInt8](v.expectedIssuer.modulus)))
        #expect(key.exponent == [0x03])

        // The invalid certificate of the same test, the wrong exponent length, expiry, another issuer.
        #expect(throws: ODAError.badTrailer) {
            try IssuerPublicKeyCertificate(recovering: bytes(v.issuerCertificateTampered), with: ca)
        }
        #expect(throws: ODAError.exponentMismatch) {
            try issuer.verify(remainder: [], exponent: bytes(v.issuerExponentWrong), pan: bytes(v.pan), on: .now)
        }
        #expect(throws: ODAError.expired) {
            try issuer.verify(remainder: [], exponent: [0x03], pan: bytes(v.pan), on: ODAFixtures.date(2032, 1, 1))
        }
        #expect(throws: ODAError.issuerIdentifierMismatch) {
            try issuer.verify(remainder: [], exponent: [0x03], pan: [UInt8]("5413330089020011"), on: .now)
        }
        // Recovered with another published CA key of the same size.
        let visa09 = try Self.caKey(rid: "A000000003", index: "09")
        #expect(throws: ODAError.self) {
            try IssuerPublicKeyCertificate(recovering: bytes(v.issuerCertificate), with: visa09)
        }
    }

    @Test func visaCA94SignedStaticDataAndICCCertificate() throws {
        let v = Self.vectors.visa
        let ca = try Self.caKey(rid: v.caRID, index: v.caIndex)
        let issuerKey = try IssuerPublicKeyCertificate(recovering: bytes(v.issuerCertificate), with: ca)
            .verify(remainder: [], exponent: [0x03], pan: bytes(v.pan), on: ODAFixtures.date(2025, 5, 6))

        let ssad = try SignedStaticApplicationData(
            recovering: bytes(v.signedStaticApplicationData),
            with: issuerKey
        )
        #expect(ssad.dataAuthenticationCode == (try bytes(v.expectedStaticData?["dataAuthenticationCode"])))
        #expect(ssad.hashResult == (try bytes(v.expectedStaticData?["hashResult"])))
        #expect(ssad.hashAlgorithmIndicator == 0x01)
        // The records behind the hash are not published; any other data fails.
        #expect(throws: ODAError.hashMismatch) { try ssad.verify(staticData: []) }
        #expect(throws: ODAError.badTrailer) {
            try SignedStaticApplicationData(recovering: bytes(v.signedStaticApplicationDataTampered), with: issuerKey)
        }

        let icc = try ICCPublicKeyCertificate(recovering: bytes(v.iccCertificate), with: issuerKey)
        try expectContents(icc.contents, v.expectedICC)
        #expect(icc.contents.remainderLength == 42)
        let iccKey = try icc.contents.unverifiedPublicKey(
            remainder: bytes(v.iccRemainder), exponent: bytes(v.iccExponent))
        #expect(iccKey.modulus == (try [UInt8](v.expectedICC.modulus)))
        // The ICC certificate expired in December 2022 and its static data is not published.
        #expect(throws: ODAError.hashMismatch) {
            try icc.verify(
                remainder: bytes(v.iccRemainder),
                exponent: [0x03],
                staticData: [],
                pan: bytes(v.pan),
                on: ODAFixtures.date(2022, 12, 1)
            )
        }
        #expect(throws: ODAError.remainderMismatch) {
            try icc.contents.unverifiedPublicKey(remainder: bytes(v.iccRemainder).dropLast(), exponent: [0x03])
        }
        #expect(throws: ODAError.badTrailer) {
            try ICCPublicKeyCertificate(recovering: bytes(v.iccCertificateTampered), with: issuerKey)
        }
    }

    @Test func mastercardCAF1CombinedDataAuthentication() throws {
        let v = Self.vectors.mastercardCDA
        let ca = try Self.caKey(rid: v.caRID, index: v.caIndex)
        let date = try #require(ISO8601DateFormatter().date(from: (v.transactionDate ?? "") + "T00:00:00Z"))
        let issuer = try IssuerPublicKeyCertificate(recovering: bytes(v.issuerCertificate), with: ca)
        try expectContents(issuer.contents, v.expectedIssuer)
        let issuerKey = try issuer.verify(
            remainder: bytes(v.issuerRemainder),
            exponent: bytes(v.issuerExponent),
            pan: bytes(v.pan),
            on: date
        )
        #expect(issuerKey.modulus == (try [UInt8](v.expectedIssuer.modulus)))

        let icc = try ICCPublicKeyCertificate(recovering: bytes(v.iccCertificate), with: issuerKey)
        try expectContents(icc.contents, v.expectedICC)
        let iccKey = try icc.contents.unverifiedPublicKey(
            remainder: bytes(v.iccRemainder), exponent: bytes(v.iccExponent))
        #expect(iccKey.modulus == (try [UInt8](v.expectedICC.modulus)))

        let sdad = try SignedDynamicApplicationData(recovering: bytes(v.signedDynamicApplicationData), with: iccKey)
        try sdad.verify(terminalDynamicData: bytes(v.unpredictableNumber))
        let expected = v.expectedDynamicData
        #expect(sdad.hashResult == (try bytes(expected?["hashResult"])))
        #expect(try sdad.iccDynamicNumber() == (try bytes(expected?["iccDynamicNumber"])))
        let dynamic = try CDADynamicData(sdad.iccDynamicData)
        #expect(dynamic.iccDynamicNumber == (try bytes(expected?["iccDynamicNumber"])))
        #expect([dynamic.cryptogramInformationData] == (try bytes(expected?["cryptogramInformationData"])))
        #expect(dynamic.applicationCryptogram == (try bytes(expected?["applicationCryptogram"])))
        #expect(dynamic.transactionDataHashCode == (try bytes(expected?["transactionDataHashCode"])))

        #expect(throws: ODAError.hashMismatch) { try sdad.verify(terminalDynamicData: [0, 0, 0, 0]) }
        #expect(throws: ODAError.self) {
            try SignedDynamicApplicationData(recovering: bytes(v.signedDynamicApplicationDataTampered), with: iccKey)
        }
        // The transaction data is not published, so the hash code cannot match made-up data.
        #expect(throws: ODAError.transactionDataHashMismatch) {
            try sdad.verifyCDA(
                unpredictableNumber: bytes(v.unpredictableNumber),
                cryptogramInformationData: 0x00,
                pdolData: [],
                cdol1Data: [],
                responseData: []
            )
        }
    }
}

/// The CA public key list file format.
@Suite struct CAPublicKeyListTests {
    static let entry: [String: String] = [
        "rid": "A000000003", "index": "99",
        "modulus": "AB79FCC952089696"
            + "7E776E64444E5DCDD6E13611874F398572252042"
            + "5295EEA4BD0C2781DE7F31CD3D041F565F747306EED62954B17EDABA3A6C5B85A1DE1BEB9A34141AF38FCF8279C9DEA0D5A6710D08"
            + "DB4124F041945587E20359BAB47B7575AD94262D4B25F264AF33DEDCF28E09615E937DE32EDC03C54445FE7E382777",
        "exponent": "03", "checksum": "4ABFFD6B1C51212D05552E431C5B17007D2F5E6D", "expiry": "2029-12-31",
    ]

    static func load(_ entries: [[String: String]]) throws -> CAPublicKeyList {
        try CAPublicKeyList(jsonData: JSONSerialization.data(withJSONObject: entries))
    }

    @Test func bareArrayWithExpiry() throws {
        let list = try Self.load([Self.entry])
        let key = try list.key(rid: [0xA0, 0, 0, 0, 0x03], index: 0x99)
        #expect(key.isExpired(on: ODAFixtures.date(2029, 12, 31)) == false)
        #expect(key.isExpired(on: ODAFixtures.date(2030, 1, 1)) == true)
        #expect(list.provenance == nil)
        // Saved without provenance it is the bare array again, expiry included.
        let saved = try JSONSerialization.jsonObject(with: list.jsonData()) as? [[String: String]]
        #expect(saved?.first?["expiry"] == "2029-12-31")
        #expect(saved?.first?["checksum"] == Self.entry["checksum"])
    }

    @Test func checksumIsOptionalButVerifiedWhenPresent() throws {
        var withoutChecksum = Self.entry
        withoutChecksum["checksum"] = nil
        #expect(try Self.load([withoutChecksum]).keys.first?.checksum == (try [UInt8](Self.entry["checksum"]!)))
        var wrong = Self.entry
        wrong["checksum"] = "4ABFFD6B1C51212D05552E431C5B17007D2F5E6E"
        #expect(throws: ODAError.caKeyChecksumMismatch) { try Self.load([wrong]) }
        var otherIndex = Self.entry
        otherIndex["index"] = "98"
        #expect(throws: ODAError.caKeyChecksumMismatch) { try Self.load([otherIndex]) }
    }

    @Test func malformedFiles() throws {
        #expect(throws: ODAError.malformedCAKeyList) { try CAPublicKeyList(jsonData: Data("not json".utf8)) }
        #expect(throws: ODAError.malformedCAKeyList) { try CAPublicKeyList(jsonData: Data("{\"keys\": 1}".utf8)) }
        for (field, value) in [("rid", "A00000000G"), ("index", "9999"), ("modulus", "ABC"), ("expiry", "2029-13-01")] {
            var entry = Self.entry
            entry[field] = value
            #expect(throws: ODAError.malformedCAKeyList, "\(field)") { try Self.load([entry]) }
        }
        var missing = Self.entry
        missing["modulus"] = nil
        #expect {
            try Self.load([missing])
        } throws: { error in
            (error as? ODAError) == .malformedCAKeyList && "\(error)".contains("missing modulus at 0")
        }
        var shortRID = Self.entry
        shortRID["rid"] = "A0000000"
        shortRID["checksum"] = nil
        #expect(throws: ODAError.invalidKey) { try Self.load([shortRID]) }
        #expect(throws: ODAError.duplicateCAKey) { try Self.load([Self.entry, Self.entry]) }
        #expect(throws: ODAError.malformedCAKeyList) {
            try CAPublicKeyList(contentsOf: URL(fileURLWithPath: "/nonexistent/capk.json"))
        }
    }

    @Test func writesAndReadsFiles() throws {
        var list = try CAPublicKeyList([ODAFixtures.keys.ca.publicKey], provenance: "test CA")
        try list.insert(Self.load([Self.entry]).keys[0])
        #expect(throws: ODAError.duplicateCAKey) { try list.insert(ODAFixtures.keys.ca.publicKey) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("capk-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try list.write(to: url)
        let loaded = try CAPublicKeyList(contentsOf: url)
        #expect(loaded.keys == list.keys)
        #expect(loaded.provenance == "test CA")
    }
}
