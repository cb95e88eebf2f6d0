import CardEmulator
import EMV
import Foundation
import Testing

/// Visa qVSDC end to end against the card: PPSE, SELECT, GPO with the cryptogram, records, issuer-side ARQC check and
/// terminal-side fDDA through the shipped test CA.
@Suite struct VisaTransactionTests {
    @Test func ppseListsTheVisaApplicationWithKernel3() throws {
        var (_, card) = try Fixtures.visa()
        let response = card.respond(to: .selectPPSE)
        #expect(response.statusWord == .success)
        let fci = try TLV.parseOne(response.data)
        #expect(fci.tag == .fileControlInformationTemplate)
        #expect(try fci.bytes(.dedicatedFileName) == CommandAPDU.proximityPaymentSystemEnvironment)
        let entry = try #require(fci.first(.applicationTemplate))
        #expect(try entry.bytes(.applicationIdentifier) == [0xA0, 0, 0, 0, 0x03, 0x10, 0x10])
        #expect(try entry.bytes(.applicationLabel) == Array("VISA CREDIT".utf8))
        #expect(try entry.bytes(.applicationPriorityIndicator) == [0x01])
        #expect(try entry.bytes(.kernelIdentifier) == [0x03])
    }

    @Test func selectAnswersTheFCIWithThePDOL() throws {
        var (profile, card) = try Fixtures.visa()
        let response = card.respond(to: try .select(name: [0xA0, 0, 0, 0, 0x03, 0x10, 0x10]))
        #expect(response.statusWord == .success)
        let fci = try TLV.parseOne(response.data)
        #expect(try fci.bytes(.dedicatedFileName) == [0xA0, 0, 0, 0, 0x03, 0x10, 0x10])
        let proprietary = try #require(fci.first(.fciProprietaryTemplate))
        #expect(try proprietary.bytes(.pdol) == profile.pdol?.bytes)
        #expect(try proprietary.bytes(.languagePreference) == Array("en".utf8))
        #expect(try DataObjectList(try proprietary.bytes(.pdol)).relatedDataLength == 33)
    }

    @Test func qVSDCTransactionGivesAVerifiableARQCAndFDDA() throws {
        var (profile, card) = try Fixtures.visa()
        card.authenticateCardholder()
        _ = card.respond(to: .selectPPSE)
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let pdolData = Fixtures.visaPDOLData()
        let response = card.respond(to: try .getProcessingOptions(pdolData: pdolData))
        #expect(response.statusWord == .success)
        let gpo = try TLV.parseOne(response.data)
        #expect(gpo.tag == .responseMessageTemplateFormat2)
        #expect(
            gpo.children.map(\.tag) == [
                .applicationInterchangeProfile, .applicationFileLocator, .track2EquivalentData, .panSequenceNumber,
                .issuerApplicationData, .applicationCryptogram, .cryptogramInformationData,
                .applicationTransactionCounter,
                .signedDynamicApplicationData, .cardTransactionQualifiers, .formFactorIndicator,
            ])
        #expect(try gpo.bytes(.cryptogramInformationData) == [0x80])
        #expect(try gpo.bytes(.applicationTransactionCounter) == [0x00, 0x01])
        let ctq = try CardTransactionQualifiers(bytes: try gpo.bytes(.cardTransactionQualifiers))
        #expect(ctq.contains(.consumerDeviceCVMPerformed))
        #expect(!card.isCardholderVerified, "the transaction consumes the wallet's verification")

        // Issuer: the ARQC verifies under the issuer master key, with the IAD the card sent (Visa format, CVN 18).
        let iad = try gpo.bytes(.issuerApplicationData)
        let typedIAD = try VisaIssuerApplicationData(bytes: iad)
        #expect(typedIAD.cryptogramVersionNumber == 0x12)
        #expect(typedIAD.cardVerificationResults.firstGenerateAC == .arqc)
        #expect(typedIAD.cardVerificationResults.contains(.ddaPerformed))
        #expect(try Fixtures.issuerVerifies(profile, sent: [(profile.pdol, pdolData)], received: [gpo]))
        let tampered = Fixtures.visaPDOLData(amount: 9_999)
        #expect(!(try Fixtures.issuerVerifies(profile, sent: [(profile.pdol, tampered)], received: [gpo])))

        // Terminal: records, keys through the test CA, and the fDDA signature over UN, amount, currency and 9F69.
        let (records, parsed) = try Fixtures.readRecords(&card, afl: try gpo.bytes(.applicationFileLocator))
        let iccKey = try Fixtures.recoverICCKey(
            records: records, parsed: parsed, gpo: gpo, rid: [0xA0, 0, 0, 0, 0x03])
        let cardAuthenticationData = Array(
            try #require(parsed.lazy.compactMap { $0.first(.cardAuthenticationRelatedData) }.first).value)
        let input = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: [1, 2, 3, 4], amountAuthorised: Fixtures.n12(1_234),
            transactionCurrencyCode: [0x08, 0x26], cardAuthenticationRelatedData: cardAuthenticationData)
        let signature = try SignedDynamicApplicationData(
            recovering: try gpo.bytes(.signedDynamicApplicationData), with: iccKey,
            format: SignedDynamicApplicationData.fDDAFormat)
        try signature.verify(terminalDynamicData: input)
        #expect(try signature.iccDynamicNumber() == [0x00, 0x01])
        #expect(throws: ODAError.hashMismatch) {
            try signature.verify(
                terminalDynamicData: try SignedDynamicApplicationData.fDDATerminalDynamicData(
                    unpredictableNumber: [1, 2, 3, 5], amountAuthorised: Fixtures.n12(1_234),
                    transactionCurrencyCode: [0x08, 0x26], cardAuthenticationRelatedData: cardAuthenticationData))
        }
    }

    @Test func noFDDAWhenTheReaderDoesNotAskForODAOnline() throws {
        var (profile, card) = try Fixtures.visa()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        var ttq = Fixtures.readerTTQ
        ttq.remove(.odaForOnlineAuthorizationsSupported)
        let response = card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData(ttq: ttq)))
        let gpo = try TLV.parseOne(response.data)
        #expect(gpo.first(.signedDynamicApplicationData) == nil)
        #expect(try gpo.bytes(.cryptogramInformationData) == [0x80])
        let ctq = try CardTransactionQualifiers(bytes: try gpo.bytes(.cardTransactionQualifiers))
        #expect(!ctq.contains(.consumerDeviceCVMPerformed))
    }

    @Test func seePhoneWhenTheReaderRequiresACVMAndTheWalletHasNotVerified() throws {
        var (profile, card) = try Fixtures.visa()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        var ttq = Fixtures.readerTTQ
        ttq.insert(.cvmRequired)
        let response = card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData(ttq: ttq)))
        #expect(response.statusWord == CardStatus.seePhone)
        #expect(response.statusWord == StatusWord(0x6986))
        #expect(card.lastATC == nil, "no ATC is used by a refused tap")

        // The wallet verifies; the second tap goes through with CDCVM performed.
        card.authenticateCardholder()
        card.reset()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let retry = card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData(ttq: ttq)))
        #expect(retry.statusWord == .success)
        let ctq = try CardTransactionQualifiers(bytes: try TLV.parseOne(retry.data).bytes(.cardTransactionQualifiers))
        #expect(ctq.contains(.consumerDeviceCVMPerformed))
    }

    @Test func pdolDataOfTheWrongLengthIs6700() throws {
        var (profile, card) = try Fixtures.visa()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let short = card.respond(to: try .getProcessingOptions(pdolData: Array(Fixtures.visaPDOLData().dropLast())))
        #expect(short.statusWord == .wrongLength)
        let empty = card.respond(to: try .getProcessingOptions())
        #expect(empty.statusWord == .wrongLength, "a strict card refuses 83 00 when it has a PDOL")
        // The applet's switch turns the lenient mode on without a new personalisation.
        #expect(!card.acceptsEmptyPDOLData)
        card.acceptsEmptyPDOLData = true
        #expect(card.respond(to: try .getProcessingOptions()).statusWord == .success)
    }

    @Test func lenientModeAcceptsAnEmptyPDOLAndRunsContactEMV() throws {
        var profile = try CardProfile.visaTest
        profile.acceptsEmptyPDOLData = true
        var card = try Fixtures.card(profile)
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let response = card.respond(to: try .getProcessingOptions())
        #expect(response.statusWord == .success)
        let gpo = try TLV.parseOne(response.data)
        #expect(gpo.children.map(\.tag) == [.applicationInterchangeProfile, .applicationFileLocator])
        // The cryptogram now comes from GENERATE AC over CDOL1; the AIP offers no CDA, so a request for it gets the
        // plain cryptogram.
        let cdol1Data = Array(Fixtures.mastercardCDOL1Data().prefix(29))
        let ac = card.respond(to: try .generateAC(.arqc, cdaRequested: true, cdolData: cdol1Data))
        #expect(ac.statusWord == .success)
        let template = try TLV.parseOne(ac.data)
        #expect(try Fixtures.issuerVerifies(profile, sent: [(profile.cdol1, cdol1Data)], received: [gpo, template]))
    }

    /// The cryptogram of a GPO response verifies at the issuer; returns the parsed template.
    static func gpo(_ card: inout EmulatedCard, _ profile: CardProfile, pdolData: [UInt8]) throws -> TLVNode {
        card.reset()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let response = card.respond(to: try .getProcessingOptions(pdolData: pdolData))
        #expect(response.statusWord == .success)
        let gpo = try TLV.parseOne(response.data)
        #expect(try Fixtures.issuerVerifies(profile, sent: [(profile.pdol, pdolData)], received: [gpo]))
        return gpo
    }

    @Test func offlineApprovalWithinTheOfflineLimitCarriesFDDA() throws {
        var profile = try CardProfile.visaTest
        profile.offlineLimit = 2_000
        var card = try Fixtures.card(profile)
        var ttq = Fixtures.readerTTQ
        ttq.remove(.odaForOnlineAuthorizationsSupported)
        let tc = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(ttq: ttq, amount: 1_500))
        #expect(try tc.bytes(.cryptogramInformationData) == [0x40])
        #expect(tc.first(.signedDynamicApplicationData) != nil, "an offline approval needs fDDA")
        let cvr = try VisaIssuerApplicationData(bytes: try tc.bytes(.issuerApplicationData)).cardVerificationResults
        #expect(cvr.firstGenerateAC == .tc)

        // Above the limit it goes online; an offline-only reader then gets a decline.
        let arqc = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(ttq: ttq, amount: 2_001))
        #expect(try arqc.bytes(.cryptogramInformationData) == [0x80])
        ttq.insert(.offlineOnlyReader)
        let aac = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(ttq: ttq, amount: 2_001))
        #expect(try aac.bytes(.cryptogramInformationData) == [0x00])
        #expect(aac.first(.signedDynamicApplicationData) == nil)
        // The reader can insist on going online.
        var online = Fixtures.readerTTQ
        online.insert(.onlineCryptogramRequired)
        let forced = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(ttq: online, amount: 100))
        #expect(try forced.bytes(.cryptogramInformationData) == [0x80])
    }

    @Test func aCardWithoutCDCVMAsksTheReaderForAnotherCVM() throws {
        var profile = try CardProfile.visaTest
        profile.consumerDeviceCVM = .init(supported: false)
        var card = try Fixtures.card(profile)
        card.authenticateCardholder()  // ignored: the card does not do CDCVM
        var ttq = Fixtures.readerTTQ
        ttq.insert(.cvmRequired)
        let pin = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(ttq: ttq))
        var ctq = try CardTransactionQualifiers(bytes: try pin.bytes(.cardTransactionQualifiers))
        #expect(ctq.contains(.onlinePINRequired) && !ctq.contains(.consumerDeviceCVMPerformed))
        ttq.remove(.onlinePINSupported)
        let signature = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(ttq: ttq))
        ctq = try CardTransactionQualifiers(bytes: try signature.bytes(.cardTransactionQualifiers))
        #expect(ctq.contains(.signatureRequired))
        ttq.remove(.signatureSupported)
        let declined = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(ttq: ttq))
        #expect(try declined.bytes(.cryptogramInformationData) == [0x00])
    }

    @Test func theCardsOwnCVMLimitRequiresCDCVM() throws {
        var profile = try CardProfile.visaTest
        profile.consumerDeviceCVM.cvmRequiredLimit = 5_000
        var card = try Fixtures.card(profile)
        _ = try Self.gpo(&card, profile, pdolData: Fixtures.visaPDOLData(amount: 5_000))
        card.reset()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let over = card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData(amount: 5_001)))
        #expect(over.statusWord == CardStatus.seePhone)
    }

    @Test func aReaderWithoutQVSDCIsRefused() throws {
        var (profile, card) = try Fixtures.visa()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let response = card.respond(
            to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData(ttq: [.magStripeModeSupported])))
        #expect(response.statusWord == CardStatus.wrongState)
    }
}
