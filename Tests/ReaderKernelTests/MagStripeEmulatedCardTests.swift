import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

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
        // A CVC3, not an application cryptogram: the outcome says so.
        #expect(result.outcome.reason == .magStripeOnlineAuthorizationRequested)
        #expect(!"\(result.outcome)".contains("ARQC"))
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
        #expect(
            try !CVC3.verify(cvc3, iccKey: iccKey, trackTemplate: template, atc: [0x00, 0x02], unpredictableNumber: un))
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
        #expect(await channel.received.contains { $0.ins == 0x2A } == false)
    }
}
