import EMV
import Foundation
import Testing

/// The TLV side of offline data authentication: collecting the card's ODA objects from parsed responses, and CDA on
/// a parsed GENERATE AC response. The real cards of tlv-real-cards.json go through the whole chain with the payment
/// systems' published CA keys (ca-public-keys.json), so the collected bytes are checked by the card issuers' own
/// signatures.
@Suite struct ODACardDataTests {
    /// A card's READ RECORD responses by SFI and record number (from the command's P1 and P2), and its GPO response.
    struct ReadCard {
        var records: [String: [UInt8]] = [:]
        var parsedRecords: [TLVNodeCollection] = []
        var gpo: TLVNode

        init(_ card: RealCardVectors.Card) throws {
            gpo = try TLV.parseOne(card.response("GET PROCESSING OPTIONS").bytes)
            for response in card.responses where response.step.hasPrefix("READ RECORD") {
                let command = try [UInt8](response.command)
                records["\(command[3] >> 3).\(command[2])"] = response.bytes
                parsedRecords.append(try TLV.parse(response.bytes))
            }
        }

        func staticData(tagList: [UInt8]?) throws -> StaticDataToBeAuthenticated {
            try StaticDataToBeAuthenticated(
                afl: Array(try #require(gpo.first(.applicationFileLocator)).value),
                record: { records["\($0).\($1)"] },
                applicationInterchangeProfile: gpo.first(ApplicationInterchangeProfile.self)?.bytes,
                staticDataAuthenticationTagList: tagList
            )
        }

        func value(_ tag: Tag) throws -> [UInt8] {
            let node = parsedRecords.lazy.compactMap { $0.first(tag) }.first ?? gpo.first(tag)
            return Array(try #require(node).value)
        }
    }

    static let caKeys = Result { try CAPublicKeyList(jsonData: VectorFiles.data("ca-public-keys")) }

    /// Lloyds Visa Debit (Kernel 3): CA key 09, a 1408-bit issuer key, a 1024-bit ICC key and the fDDA signature
    /// in the GPO response, over the unpredictable number, amount and currency sent in the PDOL data and the
    /// card authentication related data (9F69) of record 6.
    @Test func realVisaCardPassesFDDA() throws {
        let vectors = try RealCardVectors.load()
        let read = try ReadCard(vectors.visa)
        let card = try ODACardData(collecting: read.parsedRecords + [read.gpo.children])
        #expect(card.caPublicKeyIndex == 0x09)
        #expect(card.issuerCertificate?.certificate.count == 248 && card.issuerCertificate?.remainder == [])
        #expect(card.iccCertificate?.exponent == [0x03] && card.signedStaticApplicationData == nil)

        let pan = try read.value(.applicationPAN)
        let transactionDate = ODAFixtures.date(2023, 3, 1)  // 9A in the PDOL data: 230301
        let issuerKey = try card.issuerPublicKey(
            caKeys: Self.caKeys.get(), rid: [0xA0, 0, 0, 0, 0x03], pan: pan, on: transactionDate)
        #expect(issuerKey.modulusLength == 176)
        // AFL 10 03 06 00: no record takes part in ODA, and there is no tag list.
        let staticData = try read.staticData(tagList: card.staticDataAuthenticationTagList)
        #expect(staticData.bytes.isEmpty)
        let iccKey = try card.iccPublicKey(issuerKey: issuerKey, staticData: staticData, pan: pan, on: transactionDate)
        #expect(iccKey.modulusLength == 128)

        // PDOL 9F66 04 9F02 06 9F03 06 9F1A 02 95 05 5F2A 02 9A 03 9C 01 9F37 04, sent in GPO's 83 template.
        let pdolData = try [UInt8](vectors.visa.response("GET PROCESSING OPTIONS").command).dropFirst(7).dropLast()
        #expect(pdolData.count == 33)
        let input = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: Array(pdolData.suffix(4)),
            amountAuthorised: Array(pdolData.dropFirst(4).prefix(6)),
            transactionCurrencyCode: Array(pdolData.dropFirst(23).prefix(2)),
            cardAuthenticationRelatedData: read.value(.cardAuthenticationRelatedData)
        )
        let signed = try #require(card.signedDynamicApplicationData)
        // Visa's fDDA format is '95', not EMV Book 2's '05'; the ICC dynamic number the card signed is its ATC (9F36).
        #expect(throws: ODAError.badFormat) { try SignedDynamicApplicationData(recovering: signed, with: iccKey) }
        let signature = try SignedDynamicApplicationData(
            recovering: signed, with: iccKey, format: SignedDynamicApplicationData.fDDAFormat)
        #expect(
            try signature.iccDynamicNumber()
                == Array(try #require(read.gpo.first(.applicationTransactionCounter)).value))
        try signature.verify(terminalDynamicData: input)
        #expect(throws: ODAError.hashMismatch) {
            try signature.verify(terminalDynamicData: input.dropLast() + [input.last! ^ 1])
        }

        // The same chain fails where the card data is wrong.
        #expect(throws: ODAError.expired) {
            try card.issuerPublicKey(
                caKeys: Self.caKeys.get(), rid: [0xA0, 0, 0, 0, 0x03], pan: pan, on: ODAFixtures.date(2040, 1, 1))
        }
        #expect(throws: ODAError.caKeyNotFound) {
            try card.issuerPublicKey(
                caKeys: Self.caKeys.get(), rid: [0xA0, 0, 0, 0, 0x04], pan: pan, on: transactionDate)
        }
        #expect(throws: ODAError.panMismatch) {
            try card.iccPublicKey(
                issuerKey: issuerKey, staticData: staticData, pan: try [UInt8]("4921828094896760"), on: transactionDate)
        }
    }

    /// AAB Debit Mastercard (Kernel 2): CA key 05, an issuer certificate with a remainder (92), and an ICC
    /// certificate over the one ODA record (SFI 2 record 1) followed by the AIP, as its tag list (9F4A = 82) asks.
    @Test func realMastercardCertificatesCoverItsStaticData() throws {
        let read = try ReadCard(try RealCardVectors.load().mastercard)
        let card = try ODACardData(collecting: read.parsedRecords)
        #expect(card.caPublicKeyIndex == 0x05 && card.issuerCertificate?.remainder.count == 36)
        #expect(card.staticDataAuthenticationTagList == [0x82] && card.signedDynamicApplicationData == nil)

        let pan = try read.value(.applicationPAN)
        let date = ODAFixtures.date(2023, 6, 1)  // between the card's effective (5F25) and expiry (5F24) dates
        let issuerKey = try card.issuerPublicKey(
            caKeys: Self.caKeys.get(), rid: [0xA0, 0, 0, 0, 0x04], pan: pan, on: date)
        let staticData = try read.staticData(tagList: card.staticDataAuthenticationTagList)
        let record = try #require(read.records["2.1"])
        #expect(staticData.bytes == Array(record.dropFirst(3)) + [0x19, 0x80])
        let iccKey = try card.iccPublicKey(issuerKey: issuerKey, staticData: staticData, pan: pan, on: date)
        #expect(iccKey.exponent == [0x03])

        // Without the AIP the certificate's hash no longer matches.
        #expect(throws: ODAError.hashMismatch) {
            try card.iccPublicKey(
                issuerKey: issuerKey, staticData: read.staticData(tagList: nil), pan: pan, on: date)
        }
    }

    @Test func collectingRejectsDuplicatesAndReportsMissingData() throws {
        let read = try ReadCard(try RealCardVectors.load().mastercard)
        var card = ODACardData()
        try card.collect(from: read.parsedRecords[3])  // 8F 9F32 92 90
        let before = card
        #expect(throws: ODAError.duplicateDataObject) { try card.collect(from: read.parsedRecords[3]) }
        #expect(card == before)
        let twice = try TLV.parse(try [UInt8]("70068F01058F0106"))
        #expect(throws: ODAError.duplicateDataObject) { try ODACardData(collecting: [twice]) }

        // 90 and 9F32 without 8F; then no ICC certificate at all.
        let certificate = try #require(read.parsedRecords[3].first(.issuerPublicKeyCertificate))
        let noIndex = try ODACardData(collecting: [TLV.parse(Array(certificate.encoded) + [0x9F, 0x32, 0x01, 0x03])])
        #expect(noIndex.issuerCertificate != nil && noIndex.iccCertificate == nil)
        #expect(throws: ODAError.missingData) {
            try noIndex.issuerPublicKey(
                caKeys: Self.caKeys.get(), rid: [0xA0, 0, 0, 0, 0x04], pan: [], on: .now)
        }
        #expect(throws: ODAError.missingData) {
            try noIndex.iccPublicKey(
                issuerKey: ODAFixtures.keys.ca.publicKey.key, staticData: .init(bytes: []), pan: [], on: .now)
        }
        #expect(noIndex[.issuerPublicKeyExponent] == [0x03])
    }

    /// CDA on a parsed GENERATE AC response, with the cross-checked signature of oda-test-card.json
    /// (scripts/oda-crosscheck.py verified it independently).
    @Test func cdaOnAParsedGenerateACResponse() throws {
        let file = try JSONDecoder().decode(
            ODACrossCheckTests.File.self, from: VectorFiles.data("oda-test-card"))
        let stored = file.cards[0]
        let iccKey = try ODATests.recoverICCKey(ODATests.card("issuer1984e3", "icc1024e3"))
        // The card puts 9F4B between its other objects; the hash covers the rest in card order.
        var serializer = TLV.Serializer()
        try serializer.appendConstructed(tag: .responseMessageTemplateFormat2) { template in
            try template.append(tag: .cryptogramInformationData, value: [0x80])
            try template.append(tag: .applicationTransactionCounter, value: [0x00, 0x01])
            try template.append(
                tag: .signedDynamicApplicationData, value: [UInt8](stored.cda.signedDynamicApplicationData))
            try template.append(tag: .issuerApplicationData, value: [UInt8]("06010A03A00000"))
        }
        let response = try TLV.parseOne(serializer.bytes)
        #expect(
            try SignedDynamicApplicationData.cdaResponseData(generateACResponse: response)
                == [UInt8](stored.cda.responseData))
        func verify(_ response: TLVNode) throws -> CDADynamicData {
            try SignedDynamicApplicationData.verifyCDA(
                generateACResponse: response,
                iccKey: iccKey,
                unpredictableNumber: [UInt8](stored.cda.unpredictableNumber),
                pdolData: [UInt8](stored.cda.pdolData),
                cdol1Data: [UInt8](stored.cda.cdol1Data)
            )
        }
        #expect(try verify(response).applicationCryptogram == [UInt8](stored.cda.applicationCryptogram))

        // Another CID than the signed one, a missing CID or signature, or a format 1 response.
        var tampered = serializer.bytes
        tampered[try #require(response.first(.cryptogramInformationData)).valueOffset] = 0x40
        #expect(throws: ODAError.cryptogramInformationMismatch) { try verify(TLV.parseOne(tampered)) }
        #expect(throws: ODAError.missingData) { try verify(TLV.parseOne(try [UInt8]("77059F36020001"))) }
        #expect(throws: ODAError.missingData) { try verify(TLV.parseOne(try [UInt8]("77049F270180"))) }
        #expect(throws: ODAError.malformedDynamicData) { try verify(TLV.parseOne(try [UInt8]("800180"))) }
    }
}
