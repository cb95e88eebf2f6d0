import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// The kernel over SmartCard's `LoopbackChannel` with injected faults: what a torn or garbled exchange does to a
/// transaction, and that the next tap works.
@Suite struct LoopbackFaultTests {
    let profile: CardProfile
    let kernel: ReaderKernel

    init() throws {
        profile = try CardProfile.mastercardTest
        kernel = try EmulatedCards.kernel()
    }

    func loopback(_ faults: [Fault]) throws -> LoopbackChannel<EmulatedCard> {
        LoopbackChannel(applet: try EmulatedCards.card(profile), faults: FaultPlan(faults: faults))
    }

    @Test func aTruncatedResponseIsAMalformedResponse() async throws {
        let channel = try loopback([.truncatedResponse(at: .instruction(.readRecord, occurrence: 2), toLength: 1)])
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .malformedResponse)
        #expect(result.outcome.userInterface?.message == .presentCardAgain)
    }

    @Test func aTornGenerateACCostsOneATCAndTheNextTapGoesOnline() async throws {
        let channel = try loopback([.init(.loseResponse, at: .instruction(.generateAC))])
        let torn = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(torn.outcome.status == .tryAgain)
        #expect(torn.outcome.reason == .cardRemoved)
        await channel.setFaults(.none)
        await channel.presentCard()
        let retry = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(retry.outcome.status == .onlineRequest)
        let data = try #require(retry.outcome.authorizationData)
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
        // The card spent ATC 1 on the torn exchange; the retry uses the next one.
        #expect(data.iccValue(.applicationTransactionCounter) == [0x00, 0x02])
    }

    @Test func aCorruptedSignatureByteFailsCDA() async throws {
        // Byte 40 of the GENERATE AC response lies inside the CDA signature (9F4B follows 9F27 and 9F36).
        let channel = try loopback([.corruptedResponse(at: .instruction(.generateAC), byte: 40, mask: 0x01)])
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(
            result.events.contains { if case .offlineDataAuthentication(.failed(.cda, _)) = $0 { true } else { false } }
        )
        #expect(result.outcome.status == .endApplication)
    }
}
