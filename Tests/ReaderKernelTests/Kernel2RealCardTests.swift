import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// Kernel 2 against the recorded AAB Debit Mastercard (GPO, records, certificates under the production CA key 05); the
/// trace has no GENERATE AC, so each test gives the card's answer to it.
@Suite struct Kernel2RealCardTests {
    /// A format 1 GENERATE AC answer: CID, ATC 0042, an AC and an M/Chip IAD.
    static let formatOneARQC = "8012" + "80" + "0042" + "1122334455667788" + "0110A00003220000" + "9000"

    static func run(
        _ generateAC: String, amount: Int = 1000, keys: CAPublicKeyList? = nil, type: TransactionType = .purchase
    ) async throws -> (TransactionResult, [CommandAPDU]) {
        let channel = ScriptedChannel(try RealCards.aabMastercard(generateAC: generateAC))
        let kernel = try RealCards.kernel { configuration in
            if let keys { configuration.caPublicKeys = keys }
        }
        var request = RealCards.euros(amount)
        request.type = type
        let result = await kernel.perform(request, over: channel)
        return (result, await channel.received)
    }

    /// CDOL1 data offsets of the AAB card (9F02 06 9F03 06 9F1A 02 95 05 5F2A 02 9A 03 9C 01 9F37 04 9F35 01 9F45 02
    /// 9F4C 08 9F34 03 9F21 03 9F7C 14).
    static let tvrRange = 14..<19
    static let cvmResultsRange = 40..<43

    @Test func cdaIsRequestedAndABadSignatureEndsTheApplication() async throws {
        // The certificates verify (the failure is the signature's length, checked after both keys are recovered).
        let (result, commands) = try await Self.run("770E9F2701809F360200429F4B0201029000")
        let generateAC = try #require(commands.last)
        #expect(generateAC.ins == 0xAE)
        #expect(generateAC.p1 == 0x90, "ARQC with CDA")
        #expect(generateAC.data.count == 66)
        #expect(Array(generateAC.data[Self.cvmResultsRange]) == [0x1F, 0x03, 0x02], "no CVM under the CVM limit")
        #expect(Array(generateAC.data[Self.tvrRange]) == [0x00, 0x00, 0x00, 0x80, 0x00], "floor limit exceeded")
        #expect(result.events.contains(.offlineDataAuthentication(.failed(.cda, reason: "wrongLength"))))
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
        #expect(result.outcome.authorizationData == nil)
    }

    @Test func overTheCVMLimitTheCVMListAsksForOnlinePIN() async throws {
        let (result, commands) = try await Self.run("770E9F2701809F360200429F4B0201029000", amount: 6000)
        let generateAC = try #require(commands.last)
        #expect(Array(generateAC.data[Self.cvmResultsRange]) == [0x42, 0x03, 0x00])
        #expect(generateAC.data[Self.tvrRange.lowerBound + 2] & 0x04 != 0, "TVR: online CVM captured")
        #expect(
            result.events.contains(
                .cardholderVerification(.onlinePIN, results: try CVMResults(bytes: [0x42, 0x03, 0x00]))))
    }

    @Test func withoutTheCAKeyThereIsNoCDA() async throws {
        let (result, commands) = try await Self.run(Self.formatOneARQC, keys: RealCards.emptyKeyList)
        #expect(commands.last?.p1 == 0x80, "ARQC without CDA")
        #expect(result.outcome.status == .onlineRequest)
        let data = try #require(result.outcome.authorizationData)
        #expect(data.iccValue(.applicationCryptogram) == [UInt8](hex: "1122334455667788"))
        #expect(
            data.iccValue(.terminalVerificationResults) == [0x04, 0x00, 0x00, 0x80, 0x00], "CDA failed, floor limit")
        #expect(data.iccValue(.cvmResults) == [0x1F, 0x03, 0x02])
        #expect(data.iccValue(.terminalCapabilities) == [0x00, 0x08, 0xC8], "CVM capability under the limit")
        #expect(data.iccValue(.applicationInterchangeProfile) == [0x19, 0x80])
        #expect(data.pan.digits == "5375050000160110")
        #expect(data.panSequenceNumber == 0x00)
    }

    @Test func declineWithPhoneInteractionMeansSeePhone() async throws {
        let (result, _) = try await Self.run("770F9F2701009F36020042DF4B030001009000")
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .consumerDeviceCVMRequired)
        #expect(result.outcome.userInterface?.message == .seePhone)
    }

    @Test func aPlainDeclineIsDeclined() async throws {
        let (result, _) = try await Self.run("77149F2701009F360200429F26081122334455667788" + "9000")
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .declinedByCard)
    }

    @Test func refundsAskForAnAAC() async throws {
        let (_, commands) = try await Self.run(Self.formatOneARQC, type: .refund)
        #expect(commands.last?.p1 == 0x00)
    }

    @Test func keysExhaustedAtGenerateACEndsTheApplication() async throws {
        let (result, _) = try await Self.run("6A84")
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .cardStatus(command: "GENERATE AC", .notEnoughMemory))
    }
}
