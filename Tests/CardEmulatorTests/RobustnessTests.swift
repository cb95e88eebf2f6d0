import CardEmulator
import EMV
import Foundation
import Testing

/// Any command gets a status word, never a trap; everything the card answers with data is canonical BER-TLV that
/// strict parsing accepts.
@Suite struct RobustnessTests {
    static let instructions: [UInt8] = [0xA4, 0xB2, 0xA8, 0xAE, 0x2A, 0xCA, 0x20, 0x84, 0x00]

    @Test(arguments: 0..<3)
    func randomCommandsNeverTrapAndDataIsStrictTLV(profileIndex: Int) throws {
        let profiles = [
            try CardProfile.visaTest, try CardProfile.mastercardTest, try CardProfile.mastercardMagStripeTest,
        ]
        var card = try Fixtures.card(profiles[profileIndex])
        var random = SeededRandomNumberGenerator(seed: UInt64(profileIndex) + 99)
        let aid = profiles[profileIndex].applications[0].aid.bytes
        var answered = 0
        for round in 0..<1_500 {
            // Keep the card in interesting states: reselect now and then, send GPO with right and wrong data.
            if round % 50 == 0 {
                card.reset()
                _ = card.respond(to: try .select(name: aid))
            }
            let ins = Self.instructions[Int(random.next() % UInt64(Self.instructions.count))]
            let cla: UInt8 = [0x00, 0x80, 0x84][Int(random.next() % 3)]
            let length = Int(random.next() % 48)
            var data = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if ins == 0xA8, random.next() % 2 == 0 { data = [0x83, UInt8(max(0, length - 2))] + data.dropFirst(2) }
            let command = try CommandAPDU(
                cla: cla, ins: ins, p1: UInt8(truncatingIfNeeded: random.next() % 4 == 0 ? random.next() : 0x04),
                p2: UInt8(truncatingIfNeeded: random.next() % 3 == 0 ? random.next() : 0x00), data: data,
                ne: Int(random.next() % 2) * 256)
            var response = card.respond(to: command)
            if round % 7 == 0 { response = card.respond(to: .getData(tag: 0x9F36)) }
            if response.isSuccess, !response.data.isEmpty {
                _ = try TLV.parse(response.data)  // strict rules
                answered += 1
            }
        }
        #expect(answered > 0)
    }

    @Test func everyResponseOfAFullTransactionIsStrictTLV() throws {
        var (profile, card) = try Fixtures.mastercard()
        card.authenticateCardholder()
        var responses = [card.respond(to: .selectPPSE), card.respond(to: .selectPSE)]
        responses.append(card.respond(to: try .readRecord(1, sfi: 1)))
        responses.append(card.respond(to: try .select(name: profile.applications[0].aid.bytes)))
        let gpo = card.respond(to: try .getProcessingOptions())
        responses.append(gpo)
        let afl = try TLV.parseOne(gpo.data).bytes(.applicationFileLocator)
        for entry in stride(from: 0, to: afl.count, by: 4) {
            for number in afl[entry + 1]...afl[entry + 2] {
                responses.append(card.respond(to: try .readRecord(number, sfi: afl[entry] >> 3)))
            }
        }
        responses.append(
            card.respond(to: try .generateAC(.arqc, cdaRequested: true, cdolData: Fixtures.mastercardCDOL1Data())))
        for tag: UInt16 in [0x9F36, 0x9F17, 0x9F13, 0x9F4F] { responses.append(card.respond(to: .getData(tag: tag))) }
        for response in responses {
            #expect(response.statusWord == .success)
            let nodes = try TLV.parse(response.data)
            #expect(nodes.count == 1)
        }
    }
}
