import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// Kernel 3 against CardEmulator's Visa qVSDC test card (CVN 18, fDDA, CDCVM) over an in-process loopback.
@Suite struct VisaEmulatedCardTests {
    let profile: CardProfile
    let channel: AppletChannel<EmulatedCard>
    let kernel: ReaderKernel

    init() throws {
        profile = try CardProfile.visaTest
        channel = AppletChannel(try EmulatedCards.card(profile))
        kernel = try EmulatedCards.kernel()
    }

    @Test func underTheCVMLimitGoesOnlineWithFDDAAndAVerifiableARQC() async throws {
        let result = await kernel.perform(EmulatedCards.euros(1234), over: channel)
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.kernel == .c3)
        #expect(result.outcome.cardholderVerification == .noCVM)
        #expect(result.events.contains(.offlineDataAuthentication(.succeeded(.fDDA))))
        let data = try #require(result.outcome.authorizationData)
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
        #expect(data.pan.digits == profile.pan)
        #expect(data.iccValue(.dedicatedFileName) == [0xA0, 0, 0, 0, 0x03, 0x10, 0x10])
    }

    @Test func aChangedCryptogramDoesNotVerify() async throws {
        // The check above can fail: the same field 55 with one AC bit flipped is rejected by the issuer.
        let result = await kernel.perform(EmulatedCards.euros(1234), over: channel)
        let data = try #require(result.outcome.authorizationData)
        var icc = data.iccData
        let position = try #require((0..<icc.count - 2).first { icc[$0] == 0x9F && icc[$0 + 1] == 0x26 })
        icc[position + 3] ^= 0x01
        let tampered = AuthorizationData(
            mode: .emv, iccData: icc, pan: data.pan, panSequenceNumber: data.panSequenceNumber, expiry: data.expiry,
            track2: data.track2)
        #expect(try !EmulatedCards.issuerVerifiesARQC(tampered, profile: profile))
    }

    @Test func overTheCVMLimitWithoutCDCVMTheCardSaysSeePhone() async throws {
        let result = await kernel.perform(EmulatedCards.euros(6000), over: channel)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .consumerDeviceCVMRequired)
        #expect(result.outcome.userInterface?.message == .seePhone)
    }

    @Test func overTheCVMLimitAfterCDCVMGoesOnline() async throws {
        await channel.update { $0.authenticateCardholder() }
        let result = await kernel.perform(EmulatedCards.euros(6000), over: channel)
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.cardholderVerification == .consumerDevice)
        let data = try #require(result.outcome.authorizationData)
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
    }

    @Test func overTheContactlessLimitTriesAnotherInterface() async throws {
        let result = await kernel.perform(EmulatedCards.euros(50_000), over: channel)
        #expect(result.outcome.status == .tryAnotherInterface)
        #expect(await channel.received.isEmpty)
    }

    @Test func theATCIncreasesAndEveryARQCVerifies() async throws {
        var counters: [Int] = []
        for amount in [100, 2_000, 4_999] {
            let result = await kernel.perform(EmulatedCards.euros(amount), over: channel)
            let data = try #require(result.outcome.authorizationData)
            #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
            let atc = try #require(data.iccValue(.applicationTransactionCounter))
            counters.append(atc.reduce(0) { $0 << 8 | Int($1) })
        }
        #expect(counters == counters.sorted() && Set(counters).count == 3)
    }

    @Test func exhaustedKeysEndTheApplication() async throws {
        var small = profile
        small.limitedUseKeys.count = 2
        let channel = AppletChannel(try EmulatedCards.card(small))
        for _ in 0..<2 {
            #expect(await kernel.perform(EmulatedCards.euros(100), over: channel).outcome.status == .onlineRequest)
        }
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .cardStatus(command: "GET PROCESSING OPTIONS", CardStatus.noPaymentKeys))
    }

    @Test func cardRemovedMidTransaction() async throws {
        let channel = AppletChannel(try EmulatedCards.card(profile), removingAt: 3)
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .cardRemoved)
    }

    @Test(arguments: [[UInt8]([0x9F, 0x46, 0x81]), [0x90, 0x81]])
    func tamperedCertificatesFailFDDA(tag: [UInt8]) async throws {
        let channel = AppletChannel(try EmulatedCards.card(profile), tamper: EmulatedCards.flipping(tag))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.events.contains { if case .offlineDataAuthentication(.failed(.fDDA, _)) = $0 { true } else { false } })
        // The test card's CTQ (20 00) says "go online if offline data authentication fails": the issuer decides.
        #expect(result.outcome.status == .onlineRequest)
        #expect(try EmulatedCards.issuerVerifiesARQC(try #require(result.outcome.authorizationData), profile: profile))
    }

    @Test func withoutGoOnlineTheCTQMakesAnODAFailureADecline() async throws {
        var strict = profile
        strict.cardTransactionQualifiers = HexBytes([0x00, 0x00])
        let channel = AppletChannel(try EmulatedCards.card(strict), tamper: EmulatedCards.flipping([0x9F, 0x46, 0x81]))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test func unknownTagsInThePDOLAreSentAsZeros() async throws {
        var odd = profile
        odd.pdol = HexBytes((odd.pdol?.bytes ?? []) + [0x9F, 0x7A, 0x01])
        let channel = AppletChannel(try EmulatedCards.card(odd))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        let gpo = try #require(await channel.received.first { $0.ins == 0xA8 })
        #expect(gpo.data.count == 2 + 33 + 1)
        #expect(gpo.data.last == 0x00)
        #expect(result.outcome.status == .onlineRequest)
    }
}
