import CardEmulator
import EMV
import Foundation
import Testing

/// Mastercard M/Chip against the card: GPO format 2, records, GENERATE AC with CDA verified by the terminal through
/// the test CA, ARQCs verified by the issuer, DF4B and the CVR for CDCVM, the second GENERATE AC.
@Suite struct MastercardTransactionTests {
    static let aid: [UInt8] = [0xA0, 0, 0, 0, 0x04, 0x10, 0x10]
    static let cdcvmResults: [UInt8] = [0x01, 0x00, 0x02]

    /// Selects, runs GPO and reads the records; returns the GPO template and the ICC key the terminal recovers.
    static func start(_ card: inout EmulatedCard) throws -> (gpo: TLVNode, iccKey: RSAPublicKey) {
        #expect(card.respond(to: .selectPPSE).statusWord == .success)
        #expect(card.respond(to: try .select(name: aid)).statusWord == .success)
        let response = card.respond(to: try .getProcessingOptions())
        #expect(response.statusWord == .success)
        let gpo = try TLV.parseOne(response.data)
        let (records, parsed) = try Fixtures.readRecords(&card, afl: try gpo.bytes(.applicationFileLocator))
        let iccKey = try Fixtures.recoverICCKey(records: records, parsed: parsed, gpo: gpo, rid: [0xA0, 0, 0, 0, 0x04])
        return (gpo, iccKey)
    }

    @Test func gpoAnswersFormat2WithCDAAndEMVModeInTheAIP() throws {
        var (_, card) = try Fixtures.mastercard()
        _ = card.respond(to: try .select(name: Self.aid))
        let response = card.respond(to: try .getProcessingOptions())
        let gpo = try TLV.parseOne(response.data)
        #expect(gpo.tag == .responseMessageTemplateFormat2)
        #expect(gpo.children.map(\.tag) == [.applicationInterchangeProfile, .applicationFileLocator])
        let aip = try ApplicationInterchangeProfile(bytes: try gpo.bytes(.applicationInterchangeProfile))
        #expect(aip.isSuperset(of: [.cdaSupported, .emvModeSupported, .onDeviceCardholderVerificationSupported]))
    }

    @Test func generateACWithCDAVerifiesAtTheTerminalAndTheIssuer() throws {
        var (profile, card) = try Fixtures.mastercard()
        card.authenticateCardholder()
        let (gpo, iccKey) = try Self.start(&card)
        let cdol1Data = Fixtures.mastercardCDOL1Data(cvmResults: Self.cdcvmResults)
        let response = card.respond(to: try .generateAC(.arqc, cdaRequested: true, cdolData: cdol1Data))
        #expect(response.statusWord == .success)
        let template = try TLV.parseOne(response.data)
        #expect(
            template.children.map(\.tag) == [
                .cryptogramInformationData, .applicationTransactionCounter, .signedDynamicApplicationData,
                .issuerApplicationData, 0xDF4B,
            ])
        #expect(try template.bytes(.cryptogramInformationData) == [0x80])
        #expect(try template.bytes(0xDF4B) == [0x00, 0x10, 0x00], "OD-CVM verification successful")

        // Terminal: CDA with the ICC key recovered through the test CA.
        let dynamic = try SignedDynamicApplicationData.verifyCDA(
            generateACResponse: template, iccKey: iccKey, unpredictableNumber: [0xCA, 0xFE, 0xBA, 0xBE],
            pdolData: [], cdol1Data: cdol1Data)
        #expect(dynamic.cryptogramInformationData == 0x80)
        #expect(Array(dynamic.iccDynamicNumber.prefix(2)) == [0x00, 0x01])
        #expect(throws: ODAError.transactionDataHashMismatch) {
            try SignedDynamicApplicationData.verifyCDA(
                generateACResponse: template, iccKey: iccKey, unpredictableNumber: [0xCA, 0xFE, 0xBA, 0xBE],
                pdolData: [], cdol1Data: Fixtures.mastercardCDOL1Data(amount: 1_235, cvmResults: Self.cdcvmResults))
        }

        // Issuer: the AC inside the signature verifies under the issuer master key (CVN 20, CVR from the IAD).
        let iad = try template.bytes(.issuerApplicationData)
        let typed = try MastercardIssuerApplicationData(bytes: iad)
        #expect(typed.cryptogramVersionNumber == 0x14)
        #expect(typed.cardVerificationResults.firstGenerateAC == .arqc)
        #expect(typed.cardVerificationResults.secondGenerateAC == .notRequested)
        #expect(typed.cardVerificationResults.contains(.cdaReturnedInFirstGenerateAC))
        #expect(typed.cardVerificationResults.contains(.domesticTransaction))
        #expect(typed.dataAuthenticationCode == 0x0001)
        #expect(
            try Fixtures.issuerVerifies(
                profile, sent: [(profile.cdol1, cdol1Data)], received: [gpo, template],
                cryptogram: dynamic.applicationCryptogram))
        #expect(!card.isCardholderVerified)
    }

    @Test func withoutCDAItAnswersThePlainCryptogram() throws {
        var (profile, card) = try Fixtures.mastercard()
        let (gpo, _) = try Self.start(&card)
        let cdol1Data = Fixtures.mastercardCDOL1Data(country: [0x02, 0x50])
        let response = card.respond(to: try .generateAC(.arqc, cdolData: cdol1Data))
        let template = try TLV.parseOne(response.data)
        #expect(
            template.children.map(\.tag) == [
                .cryptogramInformationData, .applicationTransactionCounter, .applicationCryptogram,
                .issuerApplicationData, 0xDF4B,
            ])
        #expect(try template.bytes(0xDF4B) == [0x00, 0x00, 0x00])
        let iad = try template.bytes(.issuerApplicationData)
        #expect(
            try MastercardIssuerApplicationData(bytes: iad).cardVerificationResults.contains(.internationalTransaction))
        #expect(try Fixtures.issuerVerifies(profile, sent: [(profile.cdol1, cdol1Data)], received: [gpo, template]))
    }

    @Test func cdcvmRequiredButNotDoneDeclinesWithSeePhoneInDF4B() throws {
        var (profile, card) = try Fixtures.mastercard()
        let (gpo, _) = try Self.start(&card)
        let cdol1Data = Fixtures.mastercardCDOL1Data(amount: 10_000, cvmResults: Self.cdcvmResults)
        let response = card.respond(to: try .generateAC(.arqc, cdaRequested: true, cdolData: cdol1Data))
        let template = try TLV.parseOne(response.data)
        #expect(try template.bytes(.cryptogramInformationData) == [0x00])
        #expect(try template.bytes(0xDF4B) == [0x00, 0x01, 0x00])
        #expect(template.first(.signedDynamicApplicationData) == nil, "an AAC carries no CDA signature")
        #expect(try Fixtures.issuerVerifies(profile, sent: [(profile.cdol1, cdol1Data)], received: [gpo, template]))
    }

    @Test(arguments: [
        (CommandAPDU.CryptogramRequest.tc, [UInt8]([0, 0, 0, 0, 0]), UInt8(0x80)),  // over the offline limit: online
        (.aac, [0, 0, 0, 0, 0], 0x00),
        (.arqc, [0x00, 0x10, 0x00, 0x00, 0x00], 0x00),  // the TVR meets IAC-denial: AAC
    ])
    func cardDecidesFromTheRequestAndTVR(request: CommandAPDU.CryptogramRequest, tvr: [UInt8], expectedCID: UInt8)
        throws
    {
        var profile = try CardProfile.mastercardTest
        profile.issuerActionCodes?.denial = HexBytes([0x00, 0x10, 0x00, 0x00, 0x00])
        // 9F0E sits in the ODA record: the ICC certificate must be made again over the new static data.
        #expect(throws: CardEmulatorError.offlineDataAuthenticationFailed) { try Fixtures.card(profile) }
        profile = try profile.certified()
        var card = try Fixtures.card(profile)
        let (gpo, _) = try Self.start(&card)
        let cdol1Data = Fixtures.mastercardCDOL1Data(tvr: tvr)
        let response = card.respond(to: try .generateAC(request, cdolData: cdol1Data))
        let template = try TLV.parseOne(response.data)
        #expect(try template.bytes(.cryptogramInformationData) == [expectedCID])
        #expect(try Fixtures.issuerVerifies(profile, sent: [(profile.cdol1, cdol1Data)], received: [gpo, template]))
    }

    @Test func offlineTCWithinTheCardsOfflineLimit() throws {
        var profile = try CardProfile.mastercardTest
        profile.offlineLimit = 5_000
        var card = try Fixtures.card(profile)
        card.authenticateCardholder()
        let (_, iccKey) = try Self.start(&card)
        let cdol1Data = Fixtures.mastercardCDOL1Data(amount: 500)
        let response = card.respond(to: try .generateAC(.tc, cdaRequested: true, cdolData: cdol1Data))
        let template = try TLV.parseOne(response.data)
        #expect(try template.bytes(.cryptogramInformationData) == [0x40])
        let dynamic = try SignedDynamicApplicationData.verifyCDA(
            generateACResponse: template, iccKey: iccKey, unpredictableNumber: [0xCA, 0xFE, 0xBA, 0xBE], pdolData: [],
            cdol1Data: cdol1Data)
        #expect(dynamic.cryptogramInformationData == 0x40)
        #expect(card.respond(to: try .generateAC(.tc, cdolData: [0])).statusWord == CardStatus.wrongState)
    }

    @Test func secondGenerateACAfterOnlineApprovalGivesATCWithCDA() throws {
        var (profile, card) = try Fixtures.mastercard()
        let (gpo, iccKey) = try Self.start(&card)
        let cdol1Data = Fixtures.mastercardCDOL1Data()
        let first = try TLV.parseOne(card.respond(to: try .generateAC(.arqc, cdolData: cdol1Data)).data)
        let atc = try first.bytes(.applicationTransactionCounter)
        // CDOL2: 91 (10), 8A (2), 95 (5), 9F37 (4), 9F4C (8).
        let cdol2Data =
            [UInt8](repeating: 0, count: 10) + Array("00".utf8) + [0, 0, 0, 0, 0] + [9, 8, 7, 6]
            + [UInt8](repeating: 0, count: 8)
        let response = card.respond(to: try .generateAC(.tc, cdaRequested: true, cdolData: cdol2Data))
        #expect(response.statusWord == .success)
        let second = try TLV.parseOne(response.data)
        #expect(try second.bytes(.cryptogramInformationData) == [0x40])
        #expect(try second.bytes(.applicationTransactionCounter) == atc, "the second cryptogram keeps the ATC")
        let dynamic = try SignedDynamicApplicationData.verifyCDA(
            generateACResponse: second, iccKey: iccKey, unpredictableNumber: [9, 8, 7, 6], pdolData: [],
            cdol1Data: cdol1Data, cdol2Data: cdol2Data)
        let iad = try second.bytes(.issuerApplicationData)
        let cvr = try MastercardIssuerApplicationData(bytes: iad).cardVerificationResults
        #expect(cvr.firstGenerateAC == .arqc && cvr.secondGenerateAC == .tc)
        // The issuer sees CDOL1's amounts with CDOL2's TVR and unpredictable number.
        #expect(
            try Fixtures.issuerVerifies(
                profile, sent: [(profile.cdol1, cdol1Data), (profile.cdol2, cdol2Data)], received: [gpo, second],
                cryptogram: dynamic.applicationCryptogram))
        #expect(card.lastOnlineATC == 1)
        let getData = card.respond(to: .getData(tag: 0x9F13))
        #expect(getData.data == [0x9F, 0x13, 0x02, 0x00, 0x01])

        // A declined online authorisation ends in an AAC.
        var (_, other) = try Fixtures.mastercard()
        _ = try Self.start(&other)
        _ = other.respond(to: try .generateAC(.arqc, cdolData: cdol1Data))
        var declined = cdol2Data
        declined[10] = 0x30
        declined[11] = 0x35  // "05": do not honour
        let aac = try TLV.parseOne(other.respond(to: try .generateAC(.tc, cdolData: declined)).data)
        #expect(try aac.bytes(.cryptogramInformationData) == [0x00])
        #expect(other.lastOnlineATC == 0)
    }

    @Test func cdol1DataOfTheWrongLengthIs6700() throws {
        var (_, card) = try Fixtures.mastercard()
        _ = try Self.start(&card)
        let response = card.respond(
            to: try .generateAC(.arqc, cdolData: Array(Fixtures.mastercardCDOL1Data().dropLast())))
        #expect(response.statusWord == .wrongLength)
        #expect(card.lastATC == nil)
    }
}
