import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// Both kernels against CardEmulator's test cards over an in-process loopback: Kernel 3 with the Visa qVSDC card
/// (CVN 18, fDDA, CDCVM), Kernel 2 with the Mastercard M/Chip card (CVN 20, CDA, CDCVM). Every ARQC is checked the
/// way an issuer would: rebuilt from field 55 and verified under the profile's issuer master key.
@Suite struct EmulatedCardTests {
    /// One of the shipped cards with what differs between the kernels.
    struct Card: Sendable, CustomStringConvertible {
        let name: String
        let kernel: Kernel
        let oda: OfflineDataAuthentication.Method
        /// The command an exhausted card refuses.
        let refusingCommand: String
        /// Kernel 3 follows the card's CTQ ('20 00': go online if ODA fails); Kernel 2 ends the application.
        let statusAfterFailedODA: Outcome.Status

        var profile: CardProfile {
            get throws { kernel == .c3 ? try CardProfile.visaTest : try CardProfile.mastercardTest }
        }

        var description: String { name }

        static let visa = Card(
            name: "Visa", kernel: .c3, oda: .fDDA, refusingCommand: "GET PROCESSING OPTIONS",
            statusAfterFailedODA: .onlineRequest)
        static let mastercard = Card(
            name: "Mastercard", kernel: .c2, oda: .cda, refusingCommand: "GENERATE AC",
            statusAfterFailedODA: .endApplication)
        static let both = [visa, mastercard]
    }

    let kernel: ReaderKernel

    init() throws {
        kernel = try EmulatedCards.kernel()
    }

    func loopback(_ profile: CardProfile, removingAt removal: Int? = nil) throws -> AppletChannel<EmulatedCard> {
        AppletChannel(try EmulatedCards.card(profile), removingAt: removal)
    }

    @Test(arguments: Card.both)
    func underTheCVMLimitGoesOnlineWithODAAndAVerifiableARQC(card: Card) async throws {
        let profile = try card.profile
        let result = await kernel.perform(EmulatedCards.euros(1234), over: try loopback(profile))
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.kernel == card.kernel)
        #expect(result.outcome.cardholderVerification == .noCVM)
        #expect(result.events.contains(.offlineDataAuthentication(.succeeded(card.oda))))
        let data = try #require(result.outcome.authorizationData)
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
        #expect(data.pan.digits == profile.pan)
        #expect(data.iccValue(.dedicatedFileName)?.prefix(5) == [0xA0, 0, 0, 0, card.kernel == .c3 ? 0x03 : 0x04])
        if card.kernel == .c2 {
            #expect(data.iccValue(.cvmResults) == [0x3F, 0x00, 0x02])
            #expect(result.events.contains(.cryptogramRequested(.arqc, cda: true)))
        }
    }

    @Test(arguments: Card.both)
    func underTheFloorLimitTheCardApprovesOffline(card: Card) async throws {
        // A reader with a 50.00 floor limit and a card that may approve up to 100.00 offline: a TC, authenticated.
        var profile = try card.profile
        profile.offlineLimit = 10_000
        let kernel = try EmulatedCards.kernel { configuration in
            configuration.limits = configuration.limits.map { limits in
                var limits = limits
                limits.floorLimit = 5_000
                return limits
            }
        }
        let result = await kernel.perform(EmulatedCards.euros(1_000), over: try loopback(profile))
        #expect(result.outcome.status == .approved)
        #expect(result.outcome.reason == .approvedOffline)
        #expect(result.events.contains(.offlineDataAuthentication(.succeeded(card.oda))))
        let data = try #require(result.outcome.authorizationData)
        #expect(data.iccValue(.cryptogramInformationData).map { $0.first.map { $0 & 0xC0 } } == 0x40)
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile), "the TC verifies like an ARQC")
    }

    @Test(arguments: Card.both)
    func aChangedCryptogramDoesNotVerify(card: Card) async throws {
        // The issuer check can fail: the same field 55 with one AC bit flipped is rejected.
        let profile = try card.profile
        let result = await kernel.perform(EmulatedCards.euros(1234), over: try loopback(profile))
        let data = try #require(result.outcome.authorizationData)
        var icc = data.iccData
        let position = try #require((0..<icc.count - 2).first { icc[$0] == 0x9F && icc[$0 + 1] == 0x26 })
        icc[position + 3] ^= 0x01
        let tampered = CardAuthorizationData(
            mode: .emv, iccData: icc, pan: data.pan, panSequenceNumber: data.panSequenceNumber, expiry: data.expiry,
            track2: data.track2)
        #expect(try !EmulatedCards.issuerVerifiesARQC(tampered, profile: profile))
        // Another card's PSN derives other keys; and field 55 without the cryptogram cannot be checked at all.
        #expect(
            try !profile.issuerVerifiesCryptogram(
                inAuthorizationData: data.iccDataObjects(), pan: data.pan.digits, panSequenceNumber: "07"))
        var withoutCryptogram = TLV.Serializer()
        for node in try data.iccDataObjects() where node.tag != .applicationCryptogram {
            try withoutCryptogram.append(node)
        }
        #expect(throws: CardEmulatorError.missingData) {
            try profile.issuerVerifiesCryptogram(
                inAuthorizationData: try TLV.parse(withoutCryptogram.bytes), pan: data.pan.digits,
                panSequenceNumber: data.panSequenceNumber.map { [$0].hexString })
        }
    }

    @Test(arguments: Card.both)
    func overTheCVMLimitWithoutCDCVMTheCardSaysSeePhone(card: Card) async throws {
        let result = await kernel.perform(EmulatedCards.euros(6000), over: try loopback(try card.profile))
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .consumerDeviceCVMRequired)
        #expect(result.outcome.userInterface == UserInterfaceRequest(message: .seePhone, status: .notReady))
    }

    @Test(arguments: Card.both)
    func overTheCVMLimitAfterCDCVMGoesOnline(card: Card) async throws {
        let profile = try card.profile
        let channel = try loopback(profile)
        await channel.update { $0.authenticateCardholder() }
        let result = await kernel.perform(EmulatedCards.euros(6000), over: channel)
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.cardholderVerification == .consumerDevice)
        let data = try #require(result.outcome.authorizationData)
        #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
        if card.kernel == .c2 { #expect(data.iccValue(.cvmResults) == [0x01, 0x00, 0x02]) }
    }

    @Test(arguments: Card.both)
    func overTheContactlessLimitTriesAnotherInterface(card: Card) async throws {
        let channel = try loopback(try card.profile)
        let result = await kernel.perform(EmulatedCards.euros(50_000), over: channel)
        #expect(result.outcome.status == .tryAnotherInterface)
        #expect(result.outcome.reason == .amountOverContactlessLimit)
        #expect(await channel.received.isEmpty)
    }

    @Test(arguments: Card.both)
    func theATCIncreasesAndEveryARQCVerifies(card: Card) async throws {
        let profile = try card.profile
        let channel = try loopback(profile)
        var counters: [Int] = []
        for amount in [1, 2_000, 4_999] {
            let result = await kernel.perform(EmulatedCards.euros(amount), over: channel)
            let data = try #require(result.outcome.authorizationData)
            #expect(try EmulatedCards.issuerVerifiesARQC(data, profile: profile))
            counters.append(try #require(data.iccValue(.applicationTransactionCounter)).reduce(0) { $0 << 8 | Int($1) })
        }
        #expect(counters.count == 3 && counters == counters.sorted() && Set(counters).count == 3)
    }

    @Test(arguments: Card.both)
    func exhaustedKeysEndTheApplication(card: Card) async throws {
        var small = try card.profile
        small.limitedUseKeys.count = 2
        let channel = try loopback(small)
        for _ in 0..<2 {
            #expect(await kernel.perform(EmulatedCards.euros(100), over: channel).outcome.status == .onlineRequest)
        }
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .cardStatus(command: card.refusingCommand, CardStatus.noPaymentKeys))
    }

    @Test(arguments: Card.both)
    func cardRemovedAtTheLastCommand(card: Card) async throws {
        let profile = try card.profile
        let probe = try loopback(profile)
        _ = await kernel.perform(EmulatedCards.euros(100), over: probe)
        let count = await probe.received.count
        let result = await kernel.perform(EmulatedCards.euros(100), over: try loopback(profile, removingAt: count - 1))
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .cardRemoved)
        #expect(result.outcome.userInterface?.message == .presentCardAgain)
        #expect(result.exchanges.count == count)
        #expect(result.outcome.authorizationData == nil)
    }

    @Test(arguments: Card.both, [[UInt8]([0x9F, 0x46, 0x81]), [0x90, 0x81]])
    func tamperedCertificatesFailODA(card: Card, tag: [UInt8]) async throws {
        let profile = try card.profile
        let channel = AppletChannel(try EmulatedCards.card(profile), tamper: EmulatedCards.flipping(tag))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(
            result.events.contains {
                if case .offlineDataAuthentication(.failed(card.oda, _)) = $0 { true } else { false }
            })
        #expect(result.outcome.status == card.statusAfterFailedODA)
        if card.kernel == .c3 {
            // Online anyway, by the card's CTQ: the issuer sees a valid ARQC and decides.
            #expect(
                try EmulatedCards.issuerVerifiesARQC(try #require(result.outcome.authorizationData), profile: profile))
        } else {
            #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
            #expect(result.outcome.authorizationData == nil)
        }
    }

    @Test func withoutGoOnlineInTheCTQAnODAFailureDeclines() async throws {
        var strict = try CardProfile.visaTest
        strict.cardTransactionQualifiers = HexBytes([0x00, 0x00])
        let channel = AppletChannel(try EmulatedCards.card(strict), tamper: EmulatedCards.flipping([0x9F, 0x46, 0x81]))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test func aTamperedCDASignatureEndsTheApplication() async throws {
        let channel = AppletChannel(
            try EmulatedCards.card(try CardProfile.mastercardTest), tamper: EmulatedCards.flipping([0x9F, 0x4B, 0x81]))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        #expect(
            result.events.contains { if case .offlineDataAuthentication(.failed(.cda, _)) = $0 { true } else { false } }
        )
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test func unknownTagsInThePDOLAreSentAsZeros() async throws {
        var odd = try CardProfile.visaTest
        odd.pdol = HexBytes((odd.pdol?.bytes ?? []) + [0x9F, 0x7A, 0x01])
        let channel = AppletChannel(try EmulatedCards.card(odd))
        let result = await kernel.perform(EmulatedCards.euros(100), over: channel)
        let gpo = try #require(await channel.received.first { $0.ins == 0xA8 })
        #expect(gpo.data.count == 2 + 33 + 1)
        #expect(gpo.data.last == 0x00)
        #expect(result.outcome.status == .onlineRequest)
    }
}
