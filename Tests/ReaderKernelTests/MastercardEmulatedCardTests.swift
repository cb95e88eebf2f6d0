import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// Kernel 2 against CardEmulator's Mastercard M/Chip test card (CVN 20, CDA, CDCVM) and its mag-stripe-only card,
/// over an in-process loopback.
@Suite struct MastercardEmulatedCardTests {
    let profile: CardProfile
    let channel: AppletChannel<EmulatedCard>
    let kernel: ReaderKernel

    init() throws {
        profile = try CardProfile.mastercardTest
        channel = AppletChannel(try EmulatedCards.card(profile))
        kernel = try EmulatedCards.kernel()
    }

    @Test func underTheCVMLimitGoesOnlineWithCDAAndAVerifiableARQC() async throws {
        let result = await kernel.perform(EmulatedCards.euros(1234), over: channel)
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.kernel == .c2)
        #expect(result.outcome.cardholderVerification == .noCVM)
        #expect(result.events.contains(.offlineDataAuthentication(.succeeded(.cda))))
        #expect(result.events.contains(.cryptogramRequested(.arqc, cda: true)))
        let data = try #require(result.outcome.authorizationData)
        #expect(data.iccValue(.cvmResults) == [0x3F, 0x00, 0x02])
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
        #expect(data.pan.digits == profile.pan)
    }

    @Test func overTheCVMLimitWithoutCDCVMTheCardSaysSeePhone() async throws {
        let result = await kernel.perform(EmulatedCards.euros(6000), over: channel)
        #expect(result.events.contains(.cardholderVerification(.consumerDevice, results: try CVMResults(bytes: [0x01, 0x00, 0x02]))))
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .consumerDeviceCVMRequired)
        #expect(result.outcome.userInterface == UserInterfaceRequest(message: .seePhone, status: .notReady))
    }

    @Test func overTheCVMLimitAfterCDCVMGoesOnline() async throws {
        await channel.update { $0.authenticateCardholder() }
        let result = await kernel.perform(EmulatedCards.euros(6000), over: channel)
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.cardholderVerification == .consumerDevice)
        let data = try #require(result.outcome.authorizationData)
        #expect(data.iccValue(.cvmResults) == [0x01, 0x00, 0x02])
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
    }

    @Test func overTheContactlessLimitTriesAnotherInterface() async throws {
        let result = await kernel.perform(EmulatedCards.euros(99_999), over: channel)
        #expect(result.outcome.status == .tryAnotherInterface)
    }

    @Test func theATCIncreasesAndEveryARQCVerifies() async throws {
        var counters: [Int] = []
        for amount in [1, 1_500, 4_999] {
            let result = await kernel.perform(EmulatedCards.euros(amount), over: channel)
            let data = try #require(result.outcome.authorizationData)
            #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
            counters.append(try #require(data.iccValue(.applicationTransactionCounter)).reduce(0) { $0 << 8 | Int($1) })
        }
        #expect(counters == counters.sorted() && Set(counters).count == 3)
    }

    @Test func exhaustedKeysEndTheApplication() async throws {
        var small = profile
        small.limitedUseKeys.count = 1
        let channel = AppletChannel(try EmulatedCards.card(small))
        #expect(await kernel.perform(EmulatedCards.euros(100), over: channel).outcome.status == .onlineRequest)
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .cardStatus(command: "GENERATE AC", CardStatus.noPaymentKeys))
    }

    @Test(arguments: [[UInt8]([0x9F, 0x46, 0x81]), [0x90, 0x81]])
    func tamperedCertificatesFailCDAAndEndTheApplication(tag: [UInt8]) async throws {
        let channel = AppletChannel(try EmulatedCards.card(profile), tamper: EmulatedCards.flipping(tag))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.events.contains { if case .offlineDataAuthentication(.failed(.cda, _)) = $0 { true } else { false } })
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
        #expect(result.outcome.authorizationData == nil)
    }

    @Test func aTamperedSignatureFailsCDA() async throws {
        let channel = AppletChannel(try EmulatedCards.card(profile), tamper: EmulatedCards.flipping([0x9F, 0x4B, 0x81]))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test func cardRemovedAtGenerateAC() async throws {
        // PPSE, SELECT, GPO, the records, then GENERATE AC: the card leaves on the last command.
        let probe = AppletChannel(try EmulatedCards.card(profile))
        _ = await kernel.perform(EmulatedCards.euros(100), over: probe)
        let count = await probe.received.count
        let channel = AppletChannel(try EmulatedCards.card(profile), removingAt: count - 1)
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .cardRemoved)
        #expect(result.exchanges.last?.command.ins == 0xAE)
    }

    @Test func coBadgedPreferenceSelectsTheRightKernel() async throws {
        var request = EmulatedCards.euros(100)
        request.preferredAIDs = [[0xA0, 0, 0, 0, 0x04, 0x10, 0x10]]
        let result = await kernel.perform(request, over: channel)
        #expect(result.outcome.kernel == .c2)
    }
}

/// Kernel 2 mag-stripe mode against CardEmulator's mag-stripe-only Mastercard.
@Suite struct MagStripeEmulatedCardTests {
    let profile: CardProfile
    let channel: AppletChannel<EmulatedCard>
    let kernel: ReaderKernel

    init() throws {
        profile = try CardProfile.mastercardMagStripeTest
        channel = AppletChannel(try EmulatedCards.card(profile))
        kernel = try EmulatedCards.kernel()
    }

    @Test func magStripeModeBuildsADynamicTrackWithAVerifiableCVC3() async throws {
        let result = await kernel.perform(EmulatedCards.euros(1234), over: channel)
        #expect(result.events.contains(.magStripeModeSelected))
        #expect(result.outcome.status == .onlineRequest)
        let data = try #require(result.outcome.authorizationData)
        #expect(data.mode == .magStripe)
        #expect(data.iccData.isEmpty)
        let track = try #require(data.track2)
        #expect(track.pan.digits == profile.pan)
        #expect(track.serviceCode == "201")

        // The UDOL data the kernel sent: the numeric unpredictable number, nUN = 7 - 2 = 5 digits.
        let checksum = try #require(await channel.received.first { $0.ins == 0x2A })
        let un = checksum.data
        #expect(un.count == 4 && un[0] == 0 && un[1] & 0xF0 == 0)
        // Discretionary data "0000000000000" (13 digits, index 12 the rightmost): PCVC3 0F00 marks positions 8-11
        // from the right for 4 CVC3 digits (indices 1-4); PUNATC 00FE positions 1-7 for 5 UN digits (indices 7-11)
        // then 2 ATC digits (indices 5-6); the last digit is nUN.
        let digits = Array(track.discretionaryData)
        #expect(digits.count == 13)
        #expect(digits.last == "5")
        #expect(String(digits[7...11]) == String(un.hexString.suffix(5)), "UN digits")
        #expect(String(digits[5...6]) == "01", "ATC 1 in two digits")

        // Issuer: the CVC3 digits in the track verify under IMK-CVC3.
        let iccKey = try KeyDerivation.iccMasterKey(
            option: .a, issuerMasterKey: try #require(profile.issuerMasterKeys.cvc3).bytes, pan: profile.pan,
            psn: profile.panSequenceNumber)
        let template = try #require(profile.magStripe).track2.bytes
        let cvc3 = String(digits[1...4])
        #expect(
            try CVC3.verify(cvc3, iccKey: iccKey, trackTemplate: template, atc: [0x00, 0x01], unpredictableNumber: un))
    }

    @Test func overTheCVMLimitWithoutCDCVMSaysSeePhone() async throws {
        let result = await kernel.perform(EmulatedCards.euros(6000), over: channel)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.userInterface?.message == .seePhone)
    }

    @Test func overTheCVMLimitAfterCDCVMGoesOnline() async throws {
        await channel.update { $0.authenticateCardholder() }
        let result = await kernel.perform(EmulatedCards.euros(6000), over: channel)
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.cardholderVerification == .consumerDevice)
    }

    @Test func withoutMagStripeSupportTheReaderEndsTheApplication() async throws {
        let kernel = try EmulatedCards.kernel { $0.kernel2.kernelConfiguration |= 0x80 }
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .endApplication)
    }
}
