import CardEmulator
import EMV
import Foundation
import Testing

/// Every command's error statuses: class, instruction, parameters, lengths and the card's state.
@Suite struct CommandStatusTests {
    static let visaAID: [UInt8] = [0xA0, 0, 0, 0, 0x03, 0x10, 0x10]

    static func command(_ cla: UInt8, _ ins: UInt8, _ p1: UInt8, _ p2: UInt8, _ data: [UInt8] = [], ne: Int = 0)
        throws -> CommandAPDU
    {
        try CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2, data: data, ne: ne)
    }

    /// A Visa card with its application selected and (optionally) GPO done in lenient contact mode.
    static func selectedVisa(gpo: Bool = false) throws -> EmulatedCard {
        var profile = try CardProfile.visaTest
        profile.acceptsEmptyPDOLData = true
        var card = try Fixtures.card(profile)
        #expect(card.respond(to: try .select(name: visaAID)).statusWord == .success)
        if gpo { #expect(card.respond(to: try .getProcessingOptions()).statusWord == .success) }
        return card
    }

    @Test func badClassIs6E00() throws {
        var card = try Self.selectedVisa()
        #expect(
            card.respond(to: try Self.command(0x84, 0xA4, 0x04, 0x00, Self.visaAID)).statusWord == .classNotSupported)
        // A known instruction under the other class byte.
        #expect(
            card.respond(to: try Self.command(0x80, 0xA4, 0x04, 0x00, Self.visaAID)).statusWord == .classNotSupported)
        #expect(
            card.respond(to: try Self.command(0x00, 0xA8, 0x00, 0x00, [0x83, 0x00])).statusWord == .classNotSupported)
        #expect(card.respond(to: try Self.command(0x00, 0xCA, 0x9F, 0x36)).statusWord == .classNotSupported)
    }

    @Test(arguments: [UInt8(0x00), 0x12, 0x84, 0xC0, 0xFF])
    func unknownInstructionIs6D00(ins: UInt8) throws {
        var card = try Self.selectedVisa()
        #expect(card.respond(to: try Self.command(0x00, ins, 0x00, 0x00)).statusWord == .instructionNotSupported)
        #expect(card.respond(to: try Self.command(0x80, ins, 0x00, 0x00)).statusWord == .instructionNotSupported)
    }

    @Test func selectStatuses() throws {
        var (_, card) = try Fixtures.visa()
        #expect(card.respond(to: try Self.command(0x00, 0xA4, 0x00, 0x00, Self.visaAID)).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try Self.command(0x00, 0xA4, 0x04, 0x0C, Self.visaAID)).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try .select(name: [0xA0, 0, 0, 0, 0x04, 0x10, 0x10])).statusWord == .fileNotFound)
        // Partial AID: the first application whose AID starts with the RID, then no next one.
        let partial = card.respond(to: try .select(name: [0xA0, 0, 0, 0, 0x03]))
        #expect(partial.statusWord == .success)
        #expect(try TLV.parseOne(partial.data).bytes(.dedicatedFileName) == Self.visaAID)
        #expect(
            card.respond(to: try .select(name: [0xA0, 0, 0, 0, 0x03], occurrence: .next)).statusWord == .fileNotFound)
        // A failed SELECT leaves nothing selected.
        #expect(
            card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData())).statusWord
                == .conditionsOfUseNotSatisfied)
    }

    @Test func getProcessingOptionsStatuses() throws {
        var (_, card) = try Fixtures.visa()
        #expect(
            card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData())).statusWord
                == .conditionsOfUseNotSatisfied)
        _ = card.respond(to: .selectPPSE)
        #expect(
            card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData())).statusWord
                == .conditionsOfUseNotSatisfied)
        _ = card.respond(to: try .select(name: Self.visaAID))
        #expect(card.respond(to: try Self.command(0x80, 0xA8, 0x01, 0x00, [0x83, 0x00])).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try Self.command(0x80, 0xA8, 0x00, 0x00, [0x84, 0x00])).statusWord == .incorrectData)
        #expect(
            card.respond(to: try Self.command(0x80, 0xA8, 0x00, 0x00, [0x83, 0x05, 0x01])).statusWord == .incorrectData)
        #expect(card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData())).statusWord == .success)
        // GPO twice in one transaction.
        #expect(
            card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData())).statusWord
                == .conditionsOfUseNotSatisfied)
    }

    @Test func readRecordStatuses() throws {
        var (_, card) = try Fixtures.visa()
        #expect(card.respond(to: try .readRecord(1, sfi: 2)).statusWord == .conditionsOfUseNotSatisfied)
        _ = card.respond(to: try .select(name: Self.visaAID))
        #expect(card.respond(to: try .readRecord(1, sfi: 2)).statusWord == .success)
        #expect(card.respond(to: try .readRecord(9, sfi: 2)).statusWord == .recordNotFound)
        #expect(card.respond(to: try .readRecord(1, sfi: 7)).statusWord == .fileNotFound)
        #expect(
            card.respond(to: try Self.command(0x00, 0xB2, 0x01, 0x14 & ~0x04, ne: 256)).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try Self.command(0x00, 0xB2, 0x00, 0x14, ne: 256)).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try Self.command(0x00, 0xB2, 0x01, 0x04, ne: 256)).statusWord == .incorrectP1P2)
    }

    @Test func generateACStatuses() throws {
        var card = try Self.selectedVisa()
        let cdol1Data = Array(Fixtures.mastercardCDOL1Data().prefix(29))
        #expect(
            card.respond(to: try .generateAC(.arqc, cdolData: cdol1Data)).statusWord == .conditionsOfUseNotSatisfied)
        _ = card.respond(to: try .getProcessingOptions())
        #expect(card.respond(to: try Self.command(0x80, 0xAE, 0xC0, 0x00, cdol1Data)).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try Self.command(0x80, 0xAE, 0x80, 0x01, cdol1Data)).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try Self.command(0x80, 0xAE, 0x81, 0x00, cdol1Data)).statusWord == .incorrectP1P2)
        #expect(card.respond(to: try .generateAC(.arqc, cdolData: cdol1Data + [0])).statusWord == .wrongLength)
        #expect(card.respond(to: try .generateAC(.arqc, cdolData: cdol1Data)).statusWord == .success)
        // A second GENERATE AC must not ask for another ARQC.
        #expect(
            card.respond(to: try .generateAC(.arqc, cdolData: [0x30, 0x30] + cdol1Data)).statusWord
                == .conditionsOfUseNotSatisfied)
        #expect(card.respond(to: try .generateAC(.tc, cdolData: [0x30, 0x30] + cdol1Data)).statusWord == .success)
        #expect(
            card.respond(to: try .generateAC(.tc, cdolData: [0x30, 0x30] + cdol1Data)).statusWord
                == .conditionsOfUseNotSatisfied)
    }

    @Test func computeCryptographicChecksumOnAnEMVCardIsWrongState() throws {
        var card = try Self.selectedVisa(gpo: true)
        #expect(
            card.respond(to: try .computeCryptographicChecksum(udolData: [1, 2, 3, 4])).statusWord
                == .conditionsOfUseNotSatisfied)
    }

    @Test func getDataReturnsTheCountersAndLogFormat() throws {
        var (_, card) = try Fixtures.visa()
        #expect(card.respond(to: .getData(tag: 0x9F36)).statusWord == .conditionsOfUseNotSatisfied)
        _ = card.respond(to: try .select(name: Self.visaAID))
        #expect(card.respond(to: .getData(tag: 0x9F36)).data == [0x9F, 0x36, 0x02, 0x00, 0x00])
        #expect(card.respond(to: .getData(tag: 0x9F17)).data == [0x9F, 0x17, 0x01, 0x03])
        #expect(card.respond(to: .getData(tag: 0x9F13)).data == [0x9F, 0x13, 0x02, 0x00, 0x00])
        let log = card.respond(to: .getData(tag: 0x9F4F))
        #expect(log.statusWord == .success)
        #expect(try TLV.parseOne(log.data).tag == 0x9F4F)
        #expect(card.respond(to: .getData(tag: 0x9F99)).statusWord == .referencedDataNotFound)
        #expect(card.respond(to: .getData(tag: 0x5A)).statusWord == .referencedDataNotFound)
        _ = card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData()))
        #expect(card.respond(to: .getData(tag: 0x9F36)).data == [0x9F, 0x36, 0x02, 0x00, 0x01])
    }

    @Test func verifyChecksThePlaintextPINAndCountsTries() throws {
        var card = try Self.selectedVisa()
        #expect(card.respond(to: try .verify(plaintextPIN: "1234")).statusWord == .conditionsOfUseNotSatisfied)
        _ = card.respond(to: try .getProcessingOptions())
        #expect(card.respond(to: try .verify(plaintextPIN: "1111")).statusWord == .verificationFailed(triesLeft: 2))
        #expect(card.respond(to: .getData(tag: 0x9F17)).data == [0x9F, 0x17, 0x01, 0x02])
        #expect(card.respond(to: try .verify(plaintextPIN: "1234")).statusWord == .success)
        #expect(card.respond(to: .getData(tag: 0x9F17)).data == [0x9F, 0x17, 0x01, 0x03])
        #expect(
            card.respond(to: try Self.command(0x00, 0x20, 0x00, 0x88, [UInt8](repeating: 0, count: 8))).statusWord
                == .incorrectP1P2)
        #expect(
            card.respond(to: try Self.command(0x00, 0x20, 0x00, 0x80, [0x24, 0x12, 0x34, 0xFF, 0xFF, 0xFF, 0xFF]))
                .statusWord == .wrongLength)
        #expect(
            card.respond(
                to: try Self.command(0x00, 0x20, 0x00, 0x80, [0x24, 0x12, 0x3A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
            ).statusWord == .incorrectData)
        for left in [2, 1, 0] {
            #expect(
                card.respond(to: try .verify(plaintextPIN: "9999")).statusWord == .verificationFailed(triesLeft: left))
        }
        #expect(card.respond(to: try .verify(plaintextPIN: "1234")).statusWord == .authenticationMethodBlocked)
        // The counter survives the card leaving the field.
        card.reset()
        _ = card.respond(to: try .select(name: Self.visaAID))
        #expect(card.respond(to: .getData(tag: 0x9F17)).data == [0x9F, 0x17, 0x01, 0x00])
    }

    @Test func verifiedOfflinePINShowsInTheCVR() throws {
        var card = try Self.selectedVisa(gpo: true)
        #expect(card.respond(to: try .verify(plaintextPIN: "1234")).statusWord == .success)
        let cdol1Data = Array(Fixtures.mastercardCDOL1Data().prefix(29))
        let template = try TLV.parseOne(card.respond(to: try .generateAC(.arqc, cdolData: cdol1Data)).data)
        let cvr = try VisaIssuerApplicationData(bytes: try template.bytes(.issuerApplicationData))
            .cardVerificationResults
        #expect(cvr.contains(.offlinePINVerificationPerformed) && !cvr.contains(.offlinePINVerificationFailed))
    }

    @Test func pseListsApplicationsInItsDirectoryRecord() throws {
        var (_, card) = try Fixtures.visa()
        let response = card.respond(to: .selectPSE)
        #expect(response.statusWord == .success)
        let fci = try TLV.parseOne(response.data)
        #expect(try fci.bytes(.dedicatedFileName) == CommandAPDU.paymentSystemEnvironment)
        #expect(try fci.bytes(0x88) == [0x01])
        let record = card.respond(to: try .readRecord(1, sfi: 1))
        #expect(record.statusWord == .success)
        let entry = try #require(try TLV.parseOne(record.data).first(.applicationTemplate))
        #expect(try entry.bytes(.applicationIdentifier) == Self.visaAID)
        #expect(try entry.bytes(.applicationLabel) == Array("VISA CREDIT".utf8))
        #expect(card.respond(to: try .readRecord(2, sfi: 1)).statusWord == .recordNotFound)
        #expect(card.respond(to: try .readRecord(1, sfi: 2)).statusWord == .fileNotFound)
    }
}
