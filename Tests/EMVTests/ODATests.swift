@testable import EMV
import Foundation
import Testing

/// Round trips through the test CA (issuer certificate, ICC certificate, SDA, DDA, fDDA, CDA) and every typed
/// failure of recovery and verification. Keys come from Vectors/oda-test-keys.json.
@Suite struct ODATests {
    static let today = ODAFixtures.date(2025, 5, 6)
    static let pan: [UInt8] = [0x47, 0x61, 0x73, 0x90, 0x01, 0x01, 0x01, 0x19]
    static let issuerIdentifier: [UInt8] = [0x47, 0x61, 0x73, 0xFF]
    static let expiration = try! CertificateExpiration(month: 12, year: 2030)

    /// What a personalized card carries for ODA, plus its private key.
    struct Card: Sendable {
        var ca: CAPublicKey
        var issuerCertificate: IssuedCertificate
        var iccCertificate: IssuedCertificate
        var staticData: [UInt8]
        var issuerKey: RSAPrivateKey
        var iccKey: RSAPrivateKey
    }

    static func personalize(issuer: String, icc: String, staticData: [UInt8] = [0x5A, 0x08, 0x47, 0x61]) throws -> Card
    {
        let keys = ODAFixtures.keys
        let issuerKey = try keys.issuer(issuer)
        let iccKey = try keys.icc(icc)
        let issuerCertificate = try keys.ca.issueIssuerCertificate(
            for: issuerKey.publicKey,
            issuerIdentifier: issuerIdentifier,
            expiration: expiration,
            serialNumber: [0x00, 0x10, 0x01]
        )
        let iccCertificate = try issuerKey.issueICCCertificate(
            for: iccKey.publicKey,
            pan: pan,
            expiration: expiration,
            serialNumber: [0x00, 0x00, 0x07],
            staticData: staticData
        )
        return Card(
            ca: keys.ca.publicKey,
            issuerCertificate: issuerCertificate,
            iccCertificate: iccCertificate,
            staticData: staticData,
            issuerKey: issuerKey,
            iccKey: iccKey
        )
    }

    /// Cards personalized once per run: private-key operations are the slow part of these tests in debug builds.
    static let cards: Result<[String: Card], any Error> = Result {
        [
            "issuer1984e3/icc1024e3": try personalize(issuer: "issuer1984e3", icc: "icc1024e3"),
            "issuer1152e65537/icc768e65537": try personalize(issuer: "issuer1152e65537", icc: "icc768e65537"),
            "issuer1152e65537/icc1024e3": try personalize(issuer: "issuer1152e65537", icc: "icc1024e3"),
        ]
    }

    static func card(_ issuer: String, _ icc: String) throws -> Card {
        try #require(try cards.get()["\(issuer)/\(icc)"])
    }

    /// The terminal side: CA key → issuer key → ICC key.
    static func recoverICCKey(_ card: Card, on date: Date = today, pan: [UInt8] = pan) throws -> RSAPublicKey {
        let issuer = try IssuerPublicKeyCertificate(recovering: card.issuerCertificate.certificate, with: card.ca)
        let issuerKey = try issuer.verify(
            remainder: card.issuerCertificate.remainder,
            exponent: card.issuerCertificate.exponent,
            pan: pan,
            on: date
        )
        let icc = try ICCPublicKeyCertificate(recovering: card.iccCertificate.certificate, with: issuerKey)
        return try icc.verify(
            remainder: card.iccCertificate.remainder,
            exponent: card.iccCertificate.exponent,
            staticData: card.staticData,
            pan: pan,
            on: date
        )
    }

    // MARK: Round trips

    @Test func fDDARoundTripWithIssuerRemainder() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        // A 1984-bit issuer key under a 1984-bit CA: 248 - 36 bytes fit, 36 go to tag 92.
        #expect(card.issuerCertificate.remainder.count == 36)
        #expect(card.iccCertificate.remainder.isEmpty)

        let issuer = try IssuerPublicKeyCertificate(recovering: card.issuerCertificate.certificate, with: card.ca)
        #expect(issuer.issuerIdentifier == Self.issuerIdentifier)
        #expect(issuer.contents.expiration == Self.expiration)
        #expect(issuer.contents.serialNumber == [0x00, 0x10, 0x01])
        #expect(issuer.contents.publicKeyLength == 248)
        #expect(issuer.contents.remainderLength == 36)

        let iccKey = try Self.recoverICCKey(card)
        #expect(iccKey == card.iccKey.publicKey)

        // Visa fDDA version 01: UN, amount, currency and the card's 9F69 are signed with the ATC as dynamic number.
        let cardAuthenticationData: [UInt8] = [0x01, 0x8C, 0xC9, 0xF8, 0x07, 0x84, 0x00]
        let terminalData = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: [0x12, 0x34, 0x56, 0x78],
            amountAuthorised: [0x00, 0x00, 0x00, 0x00, 0x12, 0x34],
            transactionCurrencyCode: [0x09, 0x78],
            cardAuthenticationRelatedData: cardAuthenticationData
        )
        #expect(terminalData.count == 4 + 6 + 2 + 7)
        let sdad = try card.iccKey.signDynamicApplicationData(
            iccDynamicData: SignedDynamicApplicationData.iccDynamicData(dynamicNumber: [0x00, 0x2A]),
            terminalDynamicData: terminalData
        )
        let recovered = try SignedDynamicApplicationData(recovering: sdad, with: iccKey)
        try recovered.verify(terminalDynamicData: terminalData)
        #expect(try recovered.iccDynamicNumber() == [0x00, 0x2A])

        // Another amount is another signature.
        var otherAmount = terminalData
        otherAmount[9] ^= 0x01
        #expect(throws: ODAError.hashMismatch) { try recovered.verify(terminalDynamicData: otherAmount) }
    }

    @Test func fDDAVersion00SignsTheUnpredictableNumberOnly() throws {
        let un: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]
        let input = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: un,
            amountAuthorised: [],
            transactionCurrencyCode: [],
            cardAuthenticationRelatedData: nil
        )
        #expect(input == un)
        #expect(throws: ODAError.invalidInput) {
            try SignedDynamicApplicationData.fDDATerminalDynamicData(
                unpredictableNumber: un,
                amountAuthorised: [0, 0, 0, 0, 1, 0],
                transactionCurrencyCode: [0x09, 0x78],
                cardAuthenticationRelatedData: [0x02, 1, 2, 3, 4, 0, 0]
            )
        }
        #expect(throws: ODAError.invalidInput) {
            try SignedDynamicApplicationData.fDDATerminalDynamicData(
                unpredictableNumber: [1, 2, 3],
                amountAuthorised: [],
                transactionCurrencyCode: [],
                cardAuthenticationRelatedData: nil
            )
        }
    }

    @Test func ddaRoundTripWithExponent65537() throws {
        let card = try Self.card("issuer1152e65537", "icc768e65537")
        let iccKey = try Self.recoverICCKey(card)
        let ddolData: [UInt8] = [0x8B, 0x55, 0x63, 0x3B]
        let number: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let sdad = try card.iccKey.signDynamicApplicationData(
            iccDynamicData: SignedDynamicApplicationData.iccDynamicData(dynamicNumber: number),
            terminalDynamicData: ddolData
        )
        let recovered = try SignedDynamicApplicationData(recovering: sdad, with: iccKey)
        try recovered.verify(terminalDynamicData: ddolData)
        #expect(try recovered.iccDynamicNumber() == number)
        #expect(recovered.hashAlgorithmIndicator == 0x01)
    }

    @Test func sdaRoundTripOverRecordsAndAIP() throws {
        // SFI 1 record 1 (template value only), SFI 2 records 1 and 2 of which only 1 is signed, SFI 11 (whole).
        let records: [String: [UInt8]] = [
            "1.1": try [UInt8]("700A5A084761739001010119"),
            "2.1": try [UInt8]("70819F" + String(repeating: "AB", count: 0x9F)),
            "2.2": try [UInt8]("7003010203"),
            "11.1": try [UInt8]("7003AABBCC"),
        ]
        let afl: [UInt8] = [0x08, 1, 1, 1, 0x10, 1, 2, 1, 0x58, 1, 1, 1]
        let aip: [UInt8] = [0x39, 0x00]
        let staticData = try StaticDataToBeAuthenticated(
            afl: afl,
            record: { records["\($0).\($1)"] },
            applicationInterchangeProfile: aip,
            staticDataAuthenticationTagList: [0x82]
        )
        let expected: [UInt8] =
            Array(records["1.1"]!.dropFirst(2)) + Array(records["2.1"]!.dropFirst(3)) + records["11.1"]! + aip
        #expect(staticData.bytes == expected)

        let keys = ODAFixtures.keys
        let issuerKey = try keys.issuer("issuer1152e65537")
        let ssad = try issuerKey.signStaticApplicationData(staticData.bytes, dataAuthenticationCode: [0xDA, 0xC0])
        let recovered = try SignedStaticApplicationData(recovering: ssad, with: issuerKey.publicKey)
        try recovered.verify(staticData: staticData.bytes)
        #expect(recovered.dataAuthenticationCode == [0xDA, 0xC0])

        // One changed record byte breaks SDA.
        var changed = staticData.bytes
        changed[3] ^= 0x01
        #expect(throws: ODAError.hashMismatch) { try recovered.verify(staticData: changed) }

        // The same static data binds the ICC certificate.
        let card = try Self.personalize(issuer: "issuer1152e65537", icc: "icc1024e3", staticData: staticData.bytes)
        #expect(try Self.recoverICCKey(card) == card.iccKey.publicKey)
    }

    @Test func cdaRoundTripWithICCRemainder() throws {
        let card = try Self.card("issuer1152e65537", "icc1024e3")
        // A 1024-bit ICC key under a 1152-bit issuer key: 144 - 42 bytes fit, 26 go to tag 9F48.
        #expect(card.iccCertificate.remainder.count == 26)
        let iccKey = try Self.recoverICCKey(card)

        let pdolData = try [UInt8]("B620C000000000001000000000000000097800000000000978250506003B9ACA00")
        let cdol1Data = try [UInt8]("0000000010000000000000000978800000000009782505060012345678")
        let cid: UInt8 = 0x80
        // GENERATE AC response (template 77) objects other than 9F4B, in card order.
        let responseData = try [UInt8]("9F2701809F360200019F100706010A03A00000")
        let un: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let cryptogram = try [UInt8]("1122334455667788")
        let dynamicData = try CDADynamicData(
            iccDynamicNumber: [0x9F, 0x4C, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06],
            cryptogramInformationData: cid,
            applicationCryptogram: cryptogram,
            transactionDataHashCode: CDADynamicData.transactionDataHashCode(
                pdolData: pdolData,
                cdol1Data: cdol1Data,
                responseData: responseData
            )
        )
        let sdad = try card.iccKey.signDynamicApplicationData(
            iccDynamicData: dynamicData.bytes, terminalDynamicData: un)
        let recovered = try SignedDynamicApplicationData(recovering: sdad, with: iccKey)
        let verified = try recovered.verifyCDA(
            unpredictableNumber: un,
            cryptogramInformationData: cid,
            pdolData: pdolData,
            cdol1Data: cdol1Data,
            responseData: responseData
        )
        #expect(verified == dynamicData)
        #expect(verified.applicationCryptogram == cryptogram)

        func verify(
            un: [UInt8] = un,
            cid: UInt8 = cid,
            cdol2Data: [UInt8]? = nil,
            responseData: [UInt8] = responseData
        ) throws -> CDADynamicData {
            try recovered.verifyCDA(
                unpredictableNumber: un,
                cryptogramInformationData: cid,
                pdolData: pdolData,
                cdol1Data: cdol1Data,
                cdol2Data: cdol2Data,
                responseData: responseData
            )
        }
        #expect(try verify() == dynamicData)
        #expect(throws: ODAError.cryptogramInformationMismatch) { try verify(cid: 0x40) }
        var otherResponse = responseData
        otherResponse[otherResponse.count - 1] ^= 0x01
        #expect(throws: ODAError.transactionDataHashMismatch) { try verify(responseData: otherResponse) }
        #expect(throws: ODAError.transactionDataHashMismatch) { try verify(cdol2Data: [0x00]) }
        #expect(throws: ODAError.hashMismatch) { try verify(un: [0, 0, 0, 0]) }
    }

    // MARK: Typed failures of certificate recovery

    @Test func wrongCAKeyIndexIsNotFound() throws {
        let list = try CAPublicKeyList([ODAFixtures.keys.ca.publicKey])
        #expect(throws: ODAError.caKeyNotFound) { try list.key(rid: [0xF0, 0, 0, 0, 0x01], index: 0x02) }
        #expect(throws: ODAError.caKeyNotFound) { try list.key(rid: [0xA0, 0, 0, 0, 0x03], index: 0x01) }
        #expect(try list.key(rid: [0xF0, 0, 0, 0, 0x01], index: 0x01) == ODAFixtures.keys.ca.publicKey)
    }

    @Test func certificateOpenedWithAnotherCAKeyFails() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        let visa94 = try CAPublicKeyList(jsonData: VectorFiles.data("ca-public-keys"))
            .key(rid: [0xA0, 0, 0, 0, 0x03], index: 0x94)
        // Both keys are 1984 bits, so the length passes and the garbage fails the trailer or header check.
        #expect {
            try IssuerPublicKeyCertificate(recovering: card.issuerCertificate.certificate, with: visa94)
        } throws: { error in
            (error as? ODAError).map { $0 == .badTrailer || $0 == .badHeader || $0 == .signatureOutOfRange } ?? false
        }
    }

    @Test func tamperedCertificateByteFails() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        for position in [0, 100, 247] {
            var tampered = card.issuerCertificate.certificate
            tampered[position] ^= 0x01
            #expect(throws: ODAError.self) { try IssuerPublicKeyCertificate(recovering: tampered, with: card.ca) }
        }
        var tampered = card.issuerCertificate.certificate
        tampered[247] ^= 0x01
        #expect(throws: ODAError.badTrailer) { try IssuerPublicKeyCertificate(recovering: tampered, with: card.ca) }
    }

    @Test func tamperedRemainderOrExponentFailsTheHash() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        let issuer = try IssuerPublicKeyCertificate(recovering: card.issuerCertificate.certificate, with: card.ca)
        var remainder = card.issuerCertificate.remainder
        remainder[5] ^= 0x80
        #expect(throws: ODAError.hashMismatch) {
            try issuer.verify(remainder: remainder, exponent: [0x03], pan: Self.pan, on: Self.today)
        }
        #expect(throws: ODAError.hashMismatch) {
            try issuer.verify(
                remainder: card.issuerCertificate.remainder, exponent: [0x05], pan: Self.pan, on: Self.today)
        }
        #expect(throws: ODAError.remainderMismatch) {
            try issuer.verify(remainder: [], exponent: [0x03], pan: Self.pan, on: Self.today)
        }
        #expect(throws: ODAError.exponentMismatch) {
            try issuer.verify(
                remainder: card.issuerCertificate.remainder,
                exponent: [0x01, 0x00, 0x01],
                pan: Self.pan,
                on: Self.today
            )
        }
    }

    @Test func wrongLengthAndOutOfRangeSignatures() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        let certificate = card.issuerCertificate.certificate
        #expect(throws: ODAError.wrongLength) {
            try IssuerPublicKeyCertificate(recovering: certificate.dropLast(), with: card.ca)
        }
        #expect(throws: ODAError.wrongLength) {
            try IssuerPublicKeyCertificate(recovering: certificate + [0], with: card.ca)
        }
        #expect(throws: ODAError.wrongLength) { try IssuerPublicKeyCertificate(recovering: [], with: card.ca) }
        #expect(throws: ODAError.signatureOutOfRange) {
            try IssuerPublicKeyCertificate(recovering: [UInt8](repeating: 0xFF, count: 248), with: card.ca)
        }
    }

    @Test func expiryIsCheckedThroughTheLastDayOfTheMonth() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        #expect(try Self.recoverICCKey(card, on: ODAFixtures.date(2030, 12, 31)) == card.iccKey.publicKey)
        #expect(throws: ODAError.expired) { try Self.recoverICCKey(card, on: ODAFixtures.date(2031, 1, 1)) }

        // An issuer certificate valid longer than the ICC certificate: the ICC check fails on its own.
        let keys = ODAFixtures.keys
        let shortLived = try keys.issuer("issuer1984e3").issueICCCertificate(
            for: card.iccKey.publicKey,
            pan: Self.pan,
            expiration: CertificateExpiration(month: 4, year: 2025),
            serialNumber: [0, 0, 8],
            staticData: card.staticData
        )
        var expiredCard = card
        expiredCard.iccCertificate = shortLived
        #expect(throws: ODAError.expired) { try Self.recoverICCKey(expiredCard) }
        #expect(try Self.recoverICCKey(expiredCard, on: ODAFixtures.date(2025, 4, 30)) == card.iccKey.publicKey)
    }

    @Test func panMismatches() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        // Same BIN, other account: the issuer certificate passes and the ICC certificate fails.
        let otherAccount: [UInt8] = [0x47, 0x61, 0x73, 0x90, 0x01, 0x01, 0x01, 0x27]
        #expect(throws: ODAError.panMismatch) { try Self.recoverICCKey(card, pan: otherAccount) }
        // A longer PAN that starts with the same digits is still another PAN.
        #expect(throws: ODAError.panMismatch) { try Self.recoverICCKey(card, pan: Self.pan + [0x1F]) }
        // Another BIN fails the issuer identifier.
        let otherBIN: [UInt8] = [0x47, 0x61, 0x74, 0x90, 0x01, 0x01, 0x01, 0x19]
        #expect(throws: ODAError.issuerIdentifierMismatch) { try Self.recoverICCKey(card, pan: otherBIN) }
        // Malformed cn in the PAN never matches.
        #expect(throws: ODAError.issuerIdentifierMismatch) {
            try Self.recoverICCKey(card, pan: [0x4A, 0x61, 0x73, 0x90])
        }

        // Error texts never carry the PAN.
        do {
            _ = try Self.recoverICCKey(card, pan: otherAccount)
        } catch {
            #expect(!String(describing: error).contains("4761739"))
            #expect(!String(describing: error).contains(otherAccount.hexString))
        }
    }

    @Test func revokedIssuerCertificate() throws {
        let card = try Self.card("issuer1984e3", "icc1024e3")
        let issuer = try IssuerPublicKeyCertificate(recovering: card.issuerCertificate.certificate, with: card.ca)
        #expect(throws: ODAError.revoked) {
            try issuer.verify(
                remainder: card.issuerCertificate.remainder,
                exponent: card.issuerCertificate.exponent,
                pan: Self.pan,
                on: Self.today,
                revokedSerialNumbers: [[0x00, 0x10, 0x01]]
            )
        }
    }

    @Test func staticDataMismatchFailsTheICCCertificate() throws {
        var card = try Self.card("issuer1984e3", "icc1024e3")
        card.staticData[0] ^= 0x01
        #expect(throws: ODAError.hashMismatch) { try Self.recoverICCKey(card) }
    }

    @Test func blocksOfOneKindAreRejectedAsAnother() throws {
        let card = try Self.card("issuer1152e65537", "icc1024e3")
        let issuerKey = card.issuerKey
        let ssad = try issuerKey.signStaticApplicationData([1, 2, 3], dataAuthenticationCode: [0, 1])
        #expect(throws: ODAError.badFormat) { try ICCPublicKeyCertificate(recovering: ssad, with: issuerKey.publicKey) }
        #expect(throws: ODAError.badFormat) {
            try SignedStaticApplicationData(recovering: card.iccCertificate.certificate, with: issuerKey.publicKey)
        }
        #expect(throws: ODAError.badFormat) {
            try SignedDynamicApplicationData(recovering: ssad, with: issuerKey.publicKey)
        }
    }

    // MARK: Crafted blocks (the test writes the layout itself; the frame signer adds header, hash and trailer)

    /// An issuer-format certificate with chosen fields. The 1152-bit issuer key plays the CA and certifies the
    /// 768-bit ICC key, so that crafting stays fast in debug builds.
    static func craftIssuerCertificate(
        hashAlgorithm: UInt8 = 0x01,
        keyAlgorithm: UInt8 = 0x01,
        keyLength: UInt8? = nil,
        format: UInt8 = 0x02
    ) throws -> (certificate: [UInt8], exponent: [UInt8]) {
        let keys = ODAFixtures.keys
        let certifier = try keys.issuer("issuer1152e65537")
        let certified = try keys.icc("icc768e65537").publicKey
        let fields: [UInt8] =
            issuerIdentifier + [0x12, 0x30] + [0x00, 0x00, 0x01]
            + [
                hashAlgorithm, keyAlgorithm, keyLength ?? UInt8(certified.modulusLength),
                UInt8(certified.exponent.count),
            ]
        let padding = [UInt8](repeating: 0xBB, count: certifier.modulusLength - 36 - certified.modulusLength)
        let certificate = try SignedDataFrame.sign(
            format: format,
            data: fields + certified.modulus + padding,
            extra: [certified.exponent],
            with: certifier
        )
        return (certificate, certified.exponent)
    }

    static var craftingKey: RSAPublicKey {
        get throws { try ODAFixtures.keys.issuer("issuer1152e65537").publicKey }
    }

    @Test func unsupportedAlgorithmIndicators() throws {
        let ca = try Self.craftingKey
        let badHash = try Self.craftIssuerCertificate(hashAlgorithm: 0x02)
        let issuer = try IssuerPublicKeyCertificate(recovering: badHash.certificate, with: ca)
        #expect(issuer.contents.hashAlgorithmIndicator == 0x02)
        #expect(throws: ODAError.unsupportedHashAlgorithm) {
            try issuer.verify(remainder: [], exponent: badHash.exponent, pan: Self.pan, on: Self.today)
        }
        let badKey = try Self.craftIssuerCertificate(keyAlgorithm: 0x02)
        #expect(throws: ODAError.unsupportedPublicKeyAlgorithm) {
            try IssuerPublicKeyCertificate(recovering: badKey.certificate, with: ca)
                .verify(remainder: [], exponent: badKey.exponent, pan: Self.pan, on: Self.today)
        }
        // The crafted layout with good indicators verifies: the test's layout agrees with the library's.
        let good = try Self.craftIssuerCertificate()
        let key = try IssuerPublicKeyCertificate(recovering: good.certificate, with: ca)
            .verify(remainder: [], exponent: good.exponent, pan: Self.pan, on: Self.today)
        #expect(key == ODAFixtures.keys.iccs["icc768e65537"]?.publicKey)
    }

    @Test func wrongHeaderTrailerAndFormat() throws {
        let certifier = try ODAFixtures.keys.issuer("issuer1152e65537")
        let ca = certifier.publicKey
        let good = try Self.craftIssuerCertificate()
        let message = try ca.recover(good.certificate)
        var badHeader = message
        badHeader[0] = 0x6B
        #expect(throws: ODAError.badHeader) {
            try IssuerPublicKeyCertificate(recovering: certifier.sign(badHeader), with: ca)
        }
        var badTrailer = message
        badTrailer[badTrailer.count - 1] = 0xBD
        #expect(throws: ODAError.badTrailer) {
            try IssuerPublicKeyCertificate(recovering: certifier.sign(badTrailer), with: ca)
        }
        let wrongFormat = try Self.craftIssuerCertificate(format: 0x04)
        #expect(throws: ODAError.badFormat) {
            try IssuerPublicKeyCertificate(recovering: wrongFormat.certificate, with: ca)
        }
    }

    @Test func certifiedKeyLongerThanItsCertifier() throws {
        let tooLong = try Self.craftIssuerCertificate(keyLength: 145)
        #expect(throws: ODAError.keyTooLong) {
            try IssuerPublicKeyCertificate(recovering: tooLong.certificate, with: Self.craftingKey)
        }
        let keys = ODAFixtures.keys
        #expect(throws: ODAError.keyTooLong) {
            try keys.issuer("issuer1152e65537").issueICCCertificate(
                for: keys.issuer("issuer1984e3").publicKey,
                pan: Self.pan,
                expiration: Self.expiration,
                serialNumber: [0, 0, 1],
                staticData: []
            )
        }
    }

    @Test func malformedDynamicData() throws {
        let iccKey = try ODAFixtures.keys.icc("icc768e65537")
        // L_DD larger than the space in a 96-byte signature.
        let overlong = try SignedDataFrame.sign(
            format: 0x05,
            data: [0x01, 0x48] + [UInt8](repeating: 0xBB, count: 96 - 25),
            extra: [],
            with: iccKey
        )
        #expect(throws: ODAError.malformedDynamicData) {
            try SignedDynamicApplicationData(recovering: overlong, with: iccKey.publicKey)
        }
        // A DDA number where CDA data is expected, and a dynamic number length out of range.
        let dda = try iccKey.signDynamicApplicationData(iccDynamicData: [0x02, 0x00, 0x01], terminalDynamicData: [])
        let recovered = try SignedDynamicApplicationData(recovering: dda, with: iccKey.publicKey)
        #expect(throws: ODAError.malformedDynamicData) {
            try recovered.verifyCDA(
                unpredictableNumber: [],
                cryptogramInformationData: 0x80,
                pdolData: [],
                cdol1Data: [],
                responseData: []
            )
        }
        #expect(throws: ODAError.malformedDynamicData) { try CDADynamicData([0x09] + [UInt8](repeating: 0, count: 40)) }
        let noNumber = try iccKey.signDynamicApplicationData(iccDynamicData: [0x01, 0x00], terminalDynamicData: [])
        #expect(throws: ODAError.malformedDynamicData) {
            try SignedDynamicApplicationData(recovering: noNumber, with: iccKey.publicKey).iccDynamicNumber()
        }
        #expect(throws: ODAError.invalidInput) {
            try iccKey.signDynamicApplicationData(
                iccDynamicData: [UInt8](repeating: 0, count: 72), terminalDynamicData: [])
        }
    }

    // MARK: Static data to be authenticated

    @Test func staticDataFailures() throws {
        let records: [String: [UInt8]] = [
            "1.1": [0x70, 0x02, 0x01, 0x02],
            "1.2": [0x77, 0x02, 0x01, 0x02],
            "1.3": [0x70, 0x03, 0x01, 0x02],
            "1.4": [0x70, 0x80],
        ]
        func build(_ afl: [UInt8], tagList: [UInt8]? = nil, aip: [UInt8]? = nil) throws -> [UInt8] {
            try StaticDataToBeAuthenticated(
                afl: afl,
                record: { records["\($0).\($1)"] },
                applicationInterchangeProfile: aip,
                staticDataAuthenticationTagList: tagList
            ).bytes
        }
        #expect(try build([0x08, 1, 1, 1]) == [0x01, 0x02])
        #expect(try build([0x08, 1, 4, 0]) == [])
        #expect(try build([0x08, 1, 1, 1], tagList: [0x82], aip: [0x19, 0x80]) == [0x01, 0x02, 0x19, 0x80])
        let failing: [(afl: [UInt8], tagList: [UInt8]?, aip: [UInt8]?)] = [
            ([0x08, 1, 1], nil, nil),  // not a multiple of 4
            ([0x09, 1, 1, 1], nil, nil),  // low bits of SFI byte set
            ([0x00, 1, 1, 1], nil, nil),  // SFI 0
            ([0xF8, 1, 1, 1], nil, nil),  // SFI 31
            ([0x08, 0, 1, 1], nil, nil),  // record 0
            ([0x08, 2, 1, 1], nil, nil),  // last before first
            ([0x08, 1, 1, 2], nil, nil),  // more ODA records than listed
            ([0x08, 5, 5, 1], nil, nil),  // record not read
            ([0x08, 2, 2, 1], nil, nil),  // not a '70' template
            ([0x08, 3, 3, 1], nil, nil),  // length disagrees
            ([0x08, 4, 4, 1], nil, nil),  // indefinite length
            ([0x08, 1, 1, 1], [0x9F, 0x37], nil),  // tag list other than '82'
            ([0x08, 1, 1, 1], [0x82], nil),  // AIP missing
        ]
        for (afl, tagList, aip) in failing {
            #expect(throws: ODAError.invalidStaticData, "AFL \(afl.hexString)") {
                try build(afl, tagList: tagList, aip: aip)
            }
        }
    }

    // MARK: Keys

    @Test func publicKeyValidation() throws {
        let modulus = try ODAFixtures.keys.icc("icc768e65537").publicKey.modulus
        #expect(throws: ODAError.invalidKey) { try RSAPublicKey(modulus: modulus, exponent: [0x05]) }
        #expect(throws: ODAError.invalidKey) { try RSAPublicKey(modulus: modulus, exponent: [0x00, 0x03]) }
        #expect(throws: ODAError.invalidKey) { try RSAPublicKey(modulus: [0x00] + modulus.dropFirst(), exponent: [3]) }
        #expect(throws: ODAError.invalidKey) { try RSAPublicKey(modulus: Array(modulus.prefix(63)), exponent: [3]) }
        #expect(throws: ODAError.invalidKey) { try RSAPublicKey(modulus: modulus.dropLast() + [0x02], exponent: [3]) }
        #expect(throws: ODAError.invalidKey) {
            try RSAPublicKey(modulus: [UInt8](repeating: 0xC3, count: 249), exponent: [3])
        }
    }

    @Test func signingArgumentChecks() throws {
        let keys = ODAFixtures.keys
        let issuer = try keys.issuer("issuer1152e65537")
        let iccKey = try keys.icc("icc768e65537").publicKey
        #expect(throws: ODAError.invalidInput) {
            try keys.ca.issueIssuerCertificate(
                for: issuer.publicKey,
                issuerIdentifier: [0x47, 0xFF, 0xFF, 0xFF],
                expiration: Self.expiration,
                serialNumber: [0, 0, 1]
            )
        }
        #expect(throws: ODAError.invalidInput) {
            try keys.ca.issueIssuerCertificate(
                for: issuer.publicKey,
                issuerIdentifier: Self.issuerIdentifier,
                expiration: Self.expiration,
                serialNumber: [0, 1]
            )
        }
        #expect(throws: ODAError.invalidInput) {
            try issuer.issueICCCertificate(
                for: iccKey,
                pan: [0x4A],
                expiration: Self.expiration,
                serialNumber: [0, 0, 1],
                staticData: []
            )
        }
        #expect(throws: ODAError.invalidInput) { try issuer.signStaticApplicationData([], dataAuthenticationCode: [1]) }
        #expect(throws: ODAError.invalidInput) { try CertificateExpiration(month: 13, year: 2030) }
        #expect(throws: ODAError.invalidInput) { try SignedDynamicApplicationData.iccDynamicData(dynamicNumber: [1]) }
        #expect(throws: ODAError.wrongLength) { try issuer.sign([0x6A]) }
        #expect(throws: ODAError.signatureOutOfRange) { try issuer.sign([UInt8](repeating: 0xFF, count: 144)) }
    }

    @Test func expirationDecoding() throws {
        #expect(CertificateExpiration(mmyy: [0x12, 0x31])?.year == 2031)
        #expect(CertificateExpiration(mmyy: [0x01, 0x99])?.year == 1999)
        #expect(CertificateExpiration(mmyy: [0x13, 0x25]) == nil)
        #expect(CertificateExpiration(mmyy: [0x00, 0x25]) == nil)
        #expect(CertificateExpiration(mmyy: [0x1A, 0x25]) == nil)
        #expect(CertificateExpiration(mmyy: [0x12]) == nil)
        #expect(try CertificateExpiration(month: 7, year: 2029).mmyy == [0x07, 0x29])
        #expect(try CertificateExpiration(month: 7, year: 2029).description == "07/2029")
    }
}

/// Random bytes into every recovery and parser: each either succeeds or throws an ODAError, never traps.
@Suite struct ODARobustnessTests {
    @Test func randomInputsNeverCrash() throws {
        var rng = SeededGenerator(seed: 0x0DA)
        let keys = [try ODAFixtures.keys.icc("icc768e65537").publicKey, ODAFixtures.keys.ca.publicKey.key]
        func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        func survives(_ body: () throws -> Void) {
            do { try body() } catch { #expect(error is ODAError) }
        }
        for round in 0..<300 {
            let key = keys[round % 2]
            // Lengths around the modulus, values mostly below it.
            let length = key.modulusLength + [0, 0, 0, -1, 1][round % 5]
            var signature = random(max(0, length))
            if !signature.isEmpty, round % 7 != 0 { signature[0] &= 0x7F }
            survives { _ = try IssuerPublicKeyCertificate(recovering: signature, with: key) }
            survives { _ = try ICCPublicKeyCertificate(recovering: signature, with: key) }
            survives { _ = try SignedStaticApplicationData(recovering: signature, with: key) }
            survives {
                let sdad = try SignedDynamicApplicationData(recovering: signature, with: key)
                _ = try sdad.iccDynamicNumber()
            }
            survives { _ = try CDADynamicData(random(round % 40)) }
            let records = [random(round % 12)]
            survives {
                _ = try StaticDataToBeAuthenticated(
                    afl: random(round % 9),
                    record: { _, _ in records[0] },
                    applicationInterchangeProfile: random(round % 3),
                    staticDataAuthenticationTagList: round % 2 == 0 ? nil : random(round % 3)
                )
            }
            survives { _ = try RSAPublicKey(modulus: random(round % 260), exponent: random(round % 4)) }
            survives { _ = try CAPublicKeyList(jsonData: Data(random(round % 30))) }
        }
    }
}
