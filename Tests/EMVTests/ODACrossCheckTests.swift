import EMV
import Foundation
import Testing

/// Vectors/oda-test-card.json: what our test CA, issuer and card sign, stored once and checked by an independent
/// implementation (scripts/oda-crosscheck.py: Python's pow() and hashlib, layouts from EMV Book 2). Signing is
/// deterministic, so these tests re-sign with the shipped keys and expect the same bytes, then verify them.
@Suite struct ODACrossCheckTests {
    /// One card and the signatures made with it.
    struct CardVector: Codable, Equatable {
        var issuerKeyName: String
        var iccKeyName: String
        var caRID: String
        var caIndex: String
        var caModulus: String
        var caExponent: String
        var pan: String
        var staticData: String
        var issuerCertificate: String
        var issuerRemainder: String
        var issuerExponent: String
        var iccCertificate: String
        var iccRemainder: String
        var iccExponent: String
        var iccModulus: String
        var fDDA: FDDA
        var cda: CDA
        var signedStaticApplicationData: String
        var dataAuthenticationCode: String
    }

    struct FDDA: Codable, Equatable {
        var unpredictableNumber: String
        var amountAuthorised: String
        var transactionCurrencyCode: String
        var cardAuthenticationRelatedData: String
        var iccDynamicNumber: String
        var signedDynamicApplicationData: String
    }

    struct CDA: Codable, Equatable {
        var unpredictableNumber: String
        var pdolData: String
        var cdol1Data: String
        var responseData: String
        var iccDynamicNumber: String
        var cryptogramInformationData: String
        var applicationCryptogram: String
        var signedDynamicApplicationData: String
    }

    struct File: Codable {
        var provenance: String
        var cards: [CardVector]
    }

    static let fdda = FDDA(
        unpredictableNumber: "12345678",
        amountAuthorised: "000000001234",
        transactionCurrencyCode: "0978",
        cardAuthenticationRelatedData: "018CC9F8078400",
        iccDynamicNumber: "002A",
        signedDynamicApplicationData: ""
    )

    static let cda = CDA(
        unpredictableNumber: "9ABCDEF0",
        pdolData: "B620C000000000001000000000000000097800000000000978250506003B9ACA00",
        cdol1Data: "0000000010000000000000000978800000000009782505060012345678",
        responseData: "9F2701809F360200019F100706010A03A00000",
        iccDynamicNumber: "9F4C010203040506",
        cryptogramInformationData: "80",
        applicationCryptogram: "1122334455667788",
        signedDynamicApplicationData: ""
    )

    /// Builds the vector for one card with the current code.
    static func makeVector(issuer: String, icc: String) throws -> CardVector {
        let card = try ODATests.card(issuer, icc)
        var fdda = Self.fdda
        let fddaInput = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: [UInt8](fdda.unpredictableNumber),
            amountAuthorised: [UInt8](fdda.amountAuthorised),
            transactionCurrencyCode: [UInt8](fdda.transactionCurrencyCode),
            cardAuthenticationRelatedData: [UInt8](fdda.cardAuthenticationRelatedData)
        )
        fdda.signedDynamicApplicationData = try card.iccKey.signDynamicApplicationData(
            iccDynamicData: SignedDynamicApplicationData.iccDynamicData(dynamicNumber: [UInt8](fdda.iccDynamicNumber)),
            terminalDynamicData: fddaInput
        ).hexString
        var cda = Self.cda
        let dynamic = try CDADynamicData(
            iccDynamicNumber: [UInt8](cda.iccDynamicNumber),
            cryptogramInformationData: [UInt8](cda.cryptogramInformationData)[0],
            applicationCryptogram: [UInt8](cda.applicationCryptogram),
            transactionDataHashCode: CDADynamicData.transactionDataHashCode(
                pdolData: [UInt8](cda.pdolData),
                cdol1Data: [UInt8](cda.cdol1Data),
                responseData: [UInt8](cda.responseData)
            )
        )
        cda.signedDynamicApplicationData = try card.iccKey.signDynamicApplicationData(
            iccDynamicData: dynamic.bytes,
            terminalDynamicData: [UInt8](cda.unpredictableNumber)
        ).hexString
        let ssad = try card.issuerKey.signStaticApplicationData(card.staticData, dataAuthenticationCode: [0xDA, 0xC1])
        return CardVector(
            issuerKeyName: issuer,
            iccKeyName: icc,
            caRID: card.ca.rid.hexString,
            caIndex: [card.ca.index].hexString,
            caModulus: card.ca.key.modulus.hexString,
            caExponent: card.ca.key.exponent.hexString,
            pan: ODATests.pan.hexString,
            staticData: card.staticData.hexString,
            issuerCertificate: card.issuerCertificate.certificate.hexString,
            issuerRemainder: card.issuerCertificate.remainder.hexString,
            issuerExponent: card.issuerCertificate.exponent.hexString,
            iccCertificate: card.iccCertificate.certificate.hexString,
            iccRemainder: card.iccCertificate.remainder.hexString,
            iccExponent: card.iccCertificate.exponent.hexString,
            iccModulus: card.iccKey.publicKey.modulus.hexString,
            fDDA: fdda,
            cda: cda,
            signedStaticApplicationData: ssad.hexString,
            dataAuthenticationCode: "DAC1"
        )
    }

    static let cardKeys = [("issuer1984e3", "icc1024e3"), ("issuer1152e65537", "icc1024e3")]

    @Test(arguments: [0, 1])
    func signingMatchesTheCrossCheckedVector(_ position: Int) throws {
        let file = try JSONDecoder().decode(File.self, from: VectorFiles.data("oda-test-card"))
        let stored = file.cards[position]
        let (issuer, icc) = Self.cardKeys[position]
        let made = try Self.makeVector(issuer: issuer, icc: icc)
        #expect(made == stored)

        // And the terminal side accepts the stored card.
        let card = try ODATests.card(issuer, icc)
        let iccKey = try ODATests.recoverICCKey(card)
        #expect(iccKey.modulus == (try [UInt8](stored.iccModulus)))
        let sdad = try SignedDynamicApplicationData(
            recovering: [UInt8](stored.cda.signedDynamicApplicationData),
            with: iccKey
        )
        let dynamic = try sdad.verifyCDA(
            unpredictableNumber: [UInt8](stored.cda.unpredictableNumber),
            cryptogramInformationData: 0x80,
            pdolData: [UInt8](stored.cda.pdolData),
            cdol1Data: [UInt8](stored.cda.cdol1Data),
            responseData: [UInt8](stored.cda.responseData)
        )
        #expect(dynamic.applicationCryptogram == (try [UInt8](stored.cda.applicationCryptogram)))
    }

    /// Writes Tests/EMVTests/Vectors/oda-test-card.json; run with
    /// `ODA_WRITE_TEST_CARD=<path> swift test --filter writeCrossCheckVector`, then check it with
    /// `python3 scripts/oda-crosscheck.py <path>`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ODA_WRITE_TEST_CARD"] != nil))
    func writeCrossCheckVector() throws {
        let path = try #require(ProcessInfo.processInfo.environment["ODA_WRITE_TEST_CARD"])
        let file = File(
            provenance: "Made by ODACrossCheckTests.writeCrossCheckVector with the keys of oda-test-keys.json (our "
                + "test CA, issuer and card signing code). Verified independently by scripts/oda-crosscheck.py "
                + "(Python pow() and hashlib, layouts of EMV Book 2 tables 6, 7, 14, 17 and 19, fDDA input of "
                + "Book C-3), which scripts/test runs.",
            cards: try Self.cardKeys.map { try Self.makeVector(issuer: $0.0, icc: $0.1) }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(file).write(to: URL(fileURLWithPath: path))
    }
}
