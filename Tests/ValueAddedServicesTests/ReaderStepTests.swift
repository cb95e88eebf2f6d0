import CardEmulator
import Crypto
import EMV
import Foundation
import SmartCard
import Testing
import ValueAddedServices

/// The reader's VAS step against the wallet's applet over the loopback, beside a payment card.
@Suite struct ReaderStepTests {
    let coffeeKey = P256.KeyAgreement.PrivateKey()
    let teaKey = P256.KeyAgreement.PrivateKey()
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func pass(_ pid: String, _ message: String, key: P256.KeyAgreement.PrivateKey, authenticate: Bool = false) throws
        -> VASPass
    {
        try VASPass(
            passTypeIdentifier: pid, serialNumber: "1", message: message, encryptionKey: key.publicKey,
            requiresAuthentication: authenticate)
    }

    func channel(_ passes: [VASPass], authenticated: Bool = false) throws
        -> LoopbackChannel<PassAndPaymentApplet<EmulatedCard>>
    {
        let card = try CardProfile.visaTest.personalize(environment: .fixed(at: now))
        let vas = VASApplet(
            passes: passes, paymentReady: true, customerAuthenticated: authenticated,
            environment: .fixed(at: now))
        return LoopbackChannel(applet: PassAndPaymentApplet(vas: vas, payment: card))
    }

    func request(_ pids: [String], mode: VASMode = .vasAndPayment) -> VASReader.Request {
        VASReader.Request(merchants: pids.map { VASReader.Merchant(passTypeIdentifier: $0) }, mode: mode)
    }

    @Test func readsTwoPassesThenThePaymentCardAnswersThePPSE() async throws {
        let channel = try channel([
            try pass("pass.com.example.coffee", "member-1001", key: coffeeKey),
            try pass("pass.com.example.tea", "tea-7", key: teaKey),
        ])
        let outcome = try await VASReader.read(
            request(["pass.com.example.tea", "pass.com.example.coffee", "pass.com.example.other"]), over: channel)
        #expect(outcome.wallet?.label == "ApplePay")
        #expect(outcome.wallet?.capabilities.contains([.vas, .payment, .encrypted]) == true)
        #expect(outcome.entries.map(\.statusWord) == [.success, .success, VASStatus.dataNotFound])
        let decryptor = VASDecryptor(keys: [coffeeKey, teaKey])
        #expect(
            try decryptor.decrypt(outcome.entries[0].cryptogram!, passTypeIdentifier: "pass.com.example.tea", now: now)
                .message == "tea-7")
        #expect(
            try decryptor.decrypt(
                outcome.entries[1].cryptogram!, passTypeIdentifier: "pass.com.example.coffee", now: now
            ).message == "member-1001")
        // The same tap goes on to payment: the PPSE reaches the card.
        let ppse = try await channel.transmit(.selectPPSE)
        #expect(ppse.statusWord == .success)
    }

    @Test func vasOnlyGivesOnePass() async throws {
        let channel = try channel([
            try pass("pass.com.example.coffee", "member-1001", key: coffeeKey),
            try pass("pass.com.example.tea", "tea-7", key: teaKey),
        ])
        let outcome = try await VASReader.read(
            request(["pass.com.example.coffee", "pass.com.example.tea"], mode: .vasOnly), over: channel)
        #expect(outcome.entries.map(\.statusWord) == [.success, VASStatus.dataNotFound])
    }

    @Test func paymentOnlyGivesNone() async throws {
        let channel = try channel([try pass("pass.com.example.coffee", "m", key: coffeeKey)])
        let outcome = try await VASReader.read(request(["pass.com.example.coffee"], mode: .paymentOnly), over: channel)
        #expect(outcome.entries.map(\.statusWord) == [VASStatus.dataNotFound])
    }

    @Test func aPassNeedingAuthentication() async throws {
        let passes = [try pass("pass.com.example.coffee", "m", key: coffeeKey, authenticate: true)]
        let locked = try await VASReader.read(request(["pass.com.example.coffee"]), over: try channel(passes))
        #expect(locked.entries.map(\.statusWord) == [VASStatus.userInterventionRequired])
        #expect(locked.entries[0].cryptogram == nil)
        let unlocked = try await VASReader.read(
            request(["pass.com.example.coffee"]), over: try channel(passes, authenticated: true))
        #expect(unlocked.entries.map(\.statusWord) == [.success])
    }

    @Test func aPlainCardHasNoWallet() async throws {
        let card = try CardProfile.visaTest.personalize(environment: .fixed(at: now))
        let outcome = try await VASReader.read(
            request(["pass.com.example.coffee"]), over: LoopbackChannel(applet: card))
        #expect(outcome.wallet == nil)
        #expect(outcome.entries.isEmpty)
    }

    @Test func malformedRequestsAreRefused() async throws {
        let channel = try channel([try pass("pass.com.example.coffee", "m", key: coffeeKey)])
        _ = try await channel.transmit(VASProtocol.select)
        let hash = VASCryptogram.merchantIDHash("pass.com.example.coffee")
        let cases: [([UInt8], UInt8, UInt8, StatusWord)] = [
            ([0x9F, 0x22, 0x02, 0x01, 0x00], 0x01, 0x01, VASStatus.incorrectData),  // no merchant
            (
                [0x9F, 0x22, 0x02, 0x02, 0x00, 0x9F, 0x25, 0x20] + hash + [0x9F, 0x26, 0x04, 0, 0x80, 0, 1], 0x01, 0x01,
                VASStatus.incorrectData
            ),  // version 2.0
            (
                [0x9F, 0x22, 0x02, 0x01, 0x00, 0x9F, 0x25, 0x20] + hash + [0x9F, 0x26, 0x04, 0, 0x80, 0, 1], 0x02, 0x01,
                VASStatus.wrongParameters
            ),  // P1
            (
                [0x9F, 0x22, 0x02, 0x01, 0x00, 0x9F, 0x25, 0x10] + hash.prefix(16) + [0x9F, 0x26, 0x04, 0, 0x80, 0, 1],
                0x01, 0x01, VASStatus.incorrectData
            ),  // short hash
            ([0x9F, 0x22, 0x05], 0x01, 0x01, VASStatus.incorrectData),  // broken TLV
        ]
        for (data, p1, p2, expected) in cases {
            let response = try await channel.transmit(
                try CommandAPDU(cla: 0x80, ins: 0xCA, p1: p1, p2: p2, data: data, ne: 256))
            #expect(response.statusWord == expected)
            #expect(response.data.isEmpty)
        }
    }

    @Test func getDataBeforeSelectIsRefused() async throws {
        var applet = VASApplet(passes: [try pass("pass.com.example.coffee", "m", key: coffeeKey)])
        let command = VASReader.getData(
            VASReader.Merchant(passTypeIdentifier: "pass.com.example.coffee"),
            capabilities: VASTerminalCapabilities(mode: .vasOnly))
        #expect(applet.respond(to: command).statusWord == .conditionsOfUseNotSatisfied)
    }
}
