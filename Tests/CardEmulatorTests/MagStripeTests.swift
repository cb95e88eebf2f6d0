import CardEmulator
import EMV
import Foundation
import Testing

/// The Mastercard mag-stripe-only card: GPO without EMV mode, track templates, CVC3 by COMPUTE CRYPTOGRAPHIC
/// CHECKSUM, checked by the issuer from IMK-CVC3.
@Suite struct MagStripeTests {
    static let aid: [UInt8] = [0xA0, 0, 0, 0, 0x04, 0x10, 0x10]

    @Test func computeCryptographicChecksumGivesCVC3sTheIssuerVerifies() throws {
        let profile = try CardProfile.mastercardMagStripeTest
        var card = try Fixtures.card(profile)
        card.authenticateCardholder()
        _ = card.respond(to: try .select(name: Self.aid))
        let gpo = try TLV.parseOne(card.respond(to: try .getProcessingOptions()).data)
        let aip = try ApplicationInterchangeProfile(bytes: try gpo.bytes(.applicationInterchangeProfile))
        #expect(!aip.contains(.emvModeSupported))
        #expect(try gpo.bytes(.applicationFileLocator) == [0x08, 0x01, 0x01, 0x00])
        let record = try TLV.parseOne(card.respond(to: try .readRecord(1, sfi: 1)).data)
        let track2 = try record.bytes(.track2Data)
        let track1 = try record.bytes(.track1Data)
        #expect(try record.bytes(.udol) == [0x9F, 0x6A, 0x04])
        #expect(card.respond(to: try .generateAC(.arqc, cdolData: [])).statusWord == .conditionsOfUseNotSatisfied)

        let un: [UInt8] = [0x00, 0x00, 0x12, 0x34]
        let response = card.respond(to: try .computeCryptographicChecksum(udolData: un))
        #expect(response.statusWord == .success)
        let template = try TLV.parseOne(response.data)
        #expect(template.children.map(\.tag) == [0x9F61, 0x9F60, .applicationTransactionCounter, 0xDF4B])
        #expect(try template.bytes(0xDF4B) == [0x00, 0x10, 0x00])
        let atc = try template.bytes(.applicationTransactionCounter)
        #expect(atc == [0x00, 0x01])

        // Issuer: the ICC CVC3 key from IMK-CVC3 (option A), over each track template.
        let iccKey = try KeyDerivation.iccMasterKey(
            option: .a, issuerMasterKey: try #require(profile.issuerMasterKeys.cvc3).bytes, pan: profile.pan,
            psn: profile.panSequenceNumber)
        let expected2 = try CVC3.generate(iccKey: iccKey, trackTemplate: track2, atc: atc, unpredictableNumber: un)
        let expected1 = try CVC3.generate(iccKey: iccKey, trackTemplate: track1, atc: atc, unpredictableNumber: un)
        #expect(try template.bytes(0x9F61) == [UInt8(expected2 >> 8), UInt8(expected2 & 0xFF)])
        #expect(try template.bytes(0x9F60) == [UInt8(expected1 >> 8), UInt8(expected1 & 0xFF)])
        #expect(try CVC3.verify(String(expected2 % 1000), iccKey: iccKey, trackTemplate: track2, atc: atc, unpredictableNumber: un))

        #expect(card.respond(to: try .computeCryptographicChecksum(udolData: un)).statusWord == .conditionsOfUseNotSatisfied)
    }

    @Test func checksumStatuses() throws {
        var card = try Fixtures.card(try CardProfile.mastercardMagStripeTest)
        _ = card.respond(to: try .select(name: Self.aid))
        #expect(card.respond(to: try .computeCryptographicChecksum(udolData: [1, 2, 3, 4])).statusWord == .conditionsOfUseNotSatisfied)
        _ = card.respond(to: try .getProcessingOptions())
        #expect(card.respond(to: try .computeCryptographicChecksum(udolData: [1, 2, 3])).statusWord == .wrongLength)
        let wrongP1 = try CommandAPDU(cla: 0x80, ins: 0x2A, p1: 0x00, p2: 0x80, data: [1, 2, 3, 4], ne: 256)
        #expect(card.respond(to: wrongP1).statusWord == .incorrectP1P2)
        let checksum = card.respond(to: try .computeCryptographicChecksum(udolData: [1, 2, 3, 4]))
        #expect(try TLV.parseOne(checksum.data).bytes(0xDF4B) == [0x00, 0x00, 0x00])
    }
}
