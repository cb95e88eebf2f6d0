import CardEmulator
import EMV
import Testing

/// INTERNAL AUTHENTICATE (DDA, EMV Book 2, 6.5), checked from the terminal's side: keys recovered through the test
/// CA, the Signed Dynamic Application Data opened with the ICC key and its hash checked over the DDOL data sent.
@Suite("Card: dynamic data authentication, and no AIP claim the applet cannot keep")
struct DynamicDataAuthenticationTests {
    /// The default DDOL's data (9F37, the Unpredictable Number), as a terminal sends it when the card has no DDOL.
    static let ddolData: [UInt8] = [0x1C, 0xE4, 0x0A, 0x77]

    /// A card selected and through GPO, its records read and its ICC key recovered: what a contact terminal has
    /// before it asks for DDA.
    static func readCard(
        _ profile: CardProfile, rid: [UInt8], environment: CardEnvironment = Fixtures.environment
    ) throws -> (card: EmulatedCard, aip: ApplicationInterchangeProfile, iccKey: RSAPublicKey?) {
        var card = try profile.personalize(on: Fixtures.personalisationDate, environment: environment)
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let gpoCommand: CommandAPDU =
            profile.scheme == .visa
            ? try .getProcessingOptions(pdolData: Fixtures.visaPDOLData()) : try .getProcessingOptions()
        let response = card.respond(to: gpoCommand)
        #expect(response.statusWord == .success)
        let gpo = try TLV.parseOne(response.data)
        let aip = try ApplicationInterchangeProfile(bytes: try gpo.bytes(.applicationInterchangeProfile))
        let (records, parsed) = try Fixtures.readRecords(&card, afl: try gpo.bytes(.applicationFileLocator))
        let hasCertificate = parsed.contains { $0.first(.iccPublicKeyCertificate) != nil }
        let iccKey =
            hasCertificate ? try Fixtures.recoverICCKey(records: records, parsed: parsed, gpo: gpo, rid: rid) : nil
        return (card, aip, iccKey)
    }

    @Test("the Visa card signs the DDOL data: format 05, a fresh 8-byte ICC Dynamic Number, the hash verifies")
    func visaDDA() throws {
        // The system's randomness (the fixture's seeded one repeats itself on every call).
        let environment = CardEnvironment(
            now: Fixtures.environment.now, randomBytes: CardEnvironment.system.randomBytes)
        var (card, aip, iccKey) = try Self.readCard(
            try CardProfile.visaTest, rid: [0xA0, 0, 0, 0, 0x03], environment: environment)
        #expect(aip.contains(.ddaSupported))
        let key = try #require(iccKey)
        var numbers: Set<[UInt8]> = []
        for _ in 0..<2 {
            let response = card.respond(to: try .internalAuthenticate(ddolData: Self.ddolData))
            #expect(response.statusWord == .success)
            let template = try TLV.parseOne(response.data)
            #expect(template.tag == .responseMessageTemplateFormat2)
            let signature = try SignedDynamicApplicationData(
                recovering: try template.bytes(.signedDynamicApplicationData), with: key)
            try signature.verify(terminalDynamicData: Self.ddolData)
            #expect(throws: ODAError.self) { try signature.verify(terminalDynamicData: [0, 0, 0, 0]) }
            let number = try signature.iccDynamicNumber()
            #expect(number.count == 8)
            numbers.insert(number)
        }
        #expect(numbers.count == 2, "each INTERNAL AUTHENTICATE signs a new ICC Dynamic Number")
    }

    @Test("a contact terminal's GPO (PDOL data without a TTQ) runs the Visa card's contact application")
    func visaContactGPO() throws {
        var (profile, card) = try Fixtures.visa()
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let noTTQ = Fixtures.visaPDOLData(ttq: [])
        let response = card.respond(to: try .getProcessingOptions(pdolData: noTTQ))
        #expect(response.statusWord == .success)
        let gpo = try TLV.parseOne(response.data)
        #expect(gpo.children.map(\.tag) == [.applicationInterchangeProfile, .applicationFileLocator])
        // Then the cryptogram by GENERATE AC with CDOL1 (an ARQC asked for), which the issuer verifies.
        let cdol1 = try #require(profile.cdol1)
        let cdol1Data =
            Fixtures.n12(1_234) + Fixtures.n12(0) + [0x08, 0x26] + [0, 0, 0, 0, 0] + [0x08, 0x26]
            + Fixtures.transactionDate + [0x00] + [0xDE, 0xAD, 0xBE, 0xEF]
        #expect(cdol1Data.count == (try DataObjectList(cdol1.bytes)).relatedDataLength)
        let generateAC = card.respond(
            to: try CommandAPDU(cla: 0x80, ins: 0xAE, p1: 0x80, p2: 0x00, data: cdol1Data, ne: 256))
        #expect(generateAC.statusWord == .success)
        let answer = try TLV.parseOne(generateAC.data)
        #expect(try answer.bytes(.cryptogramInformationData) == [0x80])
        #expect(
            try Fixtures.issuerVerifies(
                profile, sent: [(profile.pdol, noTTQ), (cdol1, cdol1Data)], received: [gpo, answer]))
    }

    @Test("INTERNAL AUTHENTICATE: 6985 before selection and on a card without DDA; 6A86 for P1/P2; 6700 empty")
    func refusals() throws {
        var unselected = try Fixtures.card(try CardProfile.visaTest)
        #expect(
            unselected.respond(to: try .internalAuthenticate(ddolData: Self.ddolData)).statusWord
                == CardStatus.wrongState)
        var (visa, _, _) = try Self.readCard(try CardProfile.visaTest, rid: [0xA0, 0, 0, 0, 0x03])
        let wrongP2 = try CommandAPDU(cla: 0x00, ins: 0x88, p1: 0x00, p2: 0x01, data: Self.ddolData, ne: 256)
        #expect(visa.respond(to: wrongP2).statusWord == CardStatus.wrongParameters)
        let empty = try CommandAPDU(cla: 0x00, ins: 0x88, p1: 0x00, p2: 0x00, data: [], ne: 256)
        #expect(visa.respond(to: empty).statusWord == CardStatus.wrongLength)
        var (mastercard, aip, _) = try Self.readCard(try CardProfile.mastercardTest, rid: [0xA0, 0, 0, 0, 0x04])
        #expect(!aip.contains(.ddaSupported))
        #expect(
            mastercard.respond(to: try .internalAuthenticate(ddolData: Self.ddolData)).statusWord
                == CardStatus.wrongState)
    }

    @Test(
        "every shipped profile's AIP claims only what the applet implements",
        arguments: [
            ("visa", [0xA0, 0, 0, 0, 0x03] as [UInt8]), ("mastercard", [0xA0, 0, 0, 0, 0x04]),
            ("mastercard-magstripe", [0xA0, 0, 0, 0, 0x04]),
        ])
    func aipClaims(_ name: String, _ rid: [UInt8]) throws {
        let profile =
            switch name {
            case "visa": try CardProfile.visaTest
            case "mastercard": try CardProfile.mastercardTest
            default: try CardProfile.mastercardMagStripeTest
            }
        var (card, aip, iccKey) = try Self.readCard(profile, rid: rid)
        // Claims the applet has no command for.
        #expect(!aip.contains(.sdaSupported), "\(name): SDA, but the records carry no Signed Static Application Data")
        #expect(!aip.contains(.xdaSupported), "\(name): XDA is not implemented")
        #expect(!aip.contains(.issuerAuthenticationSupported), "\(name): no EXTERNAL AUTHENTICATE")
        #expect(!aip.contains(.relayResistanceProtocolSupported), "\(name): no EXCHANGE RELAY RESISTANCE DATA")
        if aip.contains(.ddaSupported) {
            let key = try #require(iccKey, "\(name): DDA without an ICC key")
            let response = card.respond(to: try .internalAuthenticate(ddolData: Self.ddolData))
            #expect(response.statusWord == .success, "\(name): DDA claimed, INTERNAL AUTHENTICATE refused")
            let template = try TLV.parseOne(response.data)
            try SignedDynamicApplicationData(
                recovering: try template.bytes(.signedDynamicApplicationData), with: key
            ).verify(terminalDynamicData: Self.ddolData)
        }
        if aip.contains(.cdaSupported) {
            // GENERATE AC with CDA is checked in full by MastercardTransactionTests; here: the key it needs.
            #expect(iccKey != nil, "\(name): CDA without an ICC key")
        }
        if aip.contains(.onDeviceCardholderVerificationSupported) {
            #expect(profile.consumerDeviceCVM.supported, "\(name): on-device CVM claimed, not supported")
        }
    }
}
