import TestMode
import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import Issuer
import ReaderKernel
import SmartCard
import Testing
import Wallet

/// Every error of Thales's ContactlessPaymentSession, each reached the way an app would meet it.
@Suite struct SessionErrorTests {
    /// Starts a payment with the default card and authenticates; returns the session and its events after
    /// `authenticationCompleted`.
    static func authenticated(_ harness: WalletHarness) async throws -> (ContactlessPaymentSession, SessionEvents) {
        let session = harness.session()
        return (session, try await SessionEvents.authenticated(session))
    }

    @Test func cancelledBySessionOrByAuthentication() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment()
        await events.authentication()?.cancel()
        #expect(await events.rest() == ["authenticationRequired", "error:cancelled"])

        var (emulating, more) = try await Self.authenticated(harness)
        try await emulating.startEmulation()
        await emulating.cancel()
        #expect(await more.rest() == ["authenticationRequired", "authenticationCompleted", "error:cancelled"])
        // The card left the field: a reader finds nothing.
        #expect(await harness.tap().outcome.status != .onlineRequest)
    }

    @Test func maxSessionDurationReachedAfterSixtySecondsOfEmulation() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        harness.clock.advance(by: 60)
        #expect(await harness.tap().outcome.status != .onlineRequest)
        #expect(await events.rest().last == "error:maxSessionDurationReached")
    }

    @Test func authenticationExpiredWhenTheTapComesTooLate() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.mastercard)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        harness.clock.advance(by: 31)
        #expect(await harness.tap().outcome.status != .onlineRequest)
        // The deadline timer or the reader's first command, whichever comes first, ends the session.
        let names = await events.rest()
        #expect(names.last == "error:authenticationExpired")
        #expect(!names.contains("transactionCompleted"))
    }

    @Test(arguments: [
        (UserAuthenticationResult.failed, "error:authenticationFailed"),
        (.biometricNotEnrolled, "error:biometricNotEnrolled"),
        (.keyInvalidated, "error:authenticationKeyInvalidated"),
        (.cancelled, "error:cancelled"),
    ])
    func theCardholderAuthenticationDecides(result: UserAuthenticationResult, error: String) async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        harness.cardholder.willAnswer(result)
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment()
        await events.authentication()?.proceed()
        #expect(await events.rest() == ["authenticationRequired", error])
    }

    @Test func nfcPermissionAndSystemEligibility() async throws {
        let denied = try WalletHarness(nfcPermission: false)
        await #expect(throws: ContactlessPaymentSessionError.nfcPermissionNotAccepted) {
            try await denied.session().requestAuthorization()
        }
        let session = denied.session()
        var events = SessionEvents(session)
        await session.startPayment()
        #expect(await events.rest() == ["error:nfcPermissionNotAccepted"])

        let ineligible = try WalletHarness(eligible: false)
        await #expect(throws: ContactlessPaymentSessionError.systemEligibilityFailed) {
            try await ineligible.session().requestAuthorization()
        }
        try await WalletHarness().session().requestAuthorization()
    }

    @Test func deviceEnvironmentUnsafeAtStartOrAtEmulation() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        harness.phone.compromise("debugger attached")
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment()
        #expect(await events.rest() == ["error:deviceEnvironmentUnsafe"])

        harness.phone.compromise(nil)
        var (later, more) = try await Self.authenticated(harness)
        harness.phone.compromise("hooking framework")
        await #expect(throws: ContactlessPaymentSessionError.deviceEnvironmentUnsafe) {
            try await later.startEmulation()
        }
        #expect(await more.rest().last == "error:deviceEnvironmentUnsafe")
    }

    @Test func noDefaultCardAndInvalidDigitalCardID() async throws {
        let harness = try WalletHarness()
        let empty = harness.session()
        var events = SessionEvents(empty)
        await empty.startPayment()
        #expect(await events.rest() == ["error:noDefaultCard"])

        _ = try await harness.digitize(.visa)
        let unknown = harness.session()
        var more = SessionEvents(unknown)
        await unknown.startPayment(withDigitalCardID: "no-such-card")
        #expect(await more.rest() == ["error:invalidDigitalCardID"])
    }

    @Test func cardNotActiveWhileSuspended() async throws {
        let harness = try WalletHarness()
        let card = try await harness.digitize(.mastercard)
        try await harness.wallet.digitalCardManager.manage(digitalCardID: card.digitalCardID, action: .suspend)
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment()
        #expect(await events.rest() == ["error:cardNotActive"])
    }

    @Test func noPaymentKeysOnceTheKeysAreSpentOrExpired() async throws {
        let harness = try WalletHarness(keyCount: 1)
        _ = try await harness.digitize(.visa)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        #expect(await harness.tap().outcome.status == .onlineRequest)
        _ = await events.rest()
        let next = harness.session()
        var more = SessionEvents(next)
        await next.startPayment()
        #expect(await more.rest() == ["error:noPaymentKeys"])
    }

    @Test func apduFailureWhenTheReaderSendsACommandTheCardRefuses() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.mastercard)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        await harness.channel.presentCard()
        _ = try await harness.channel.transmit(.selectPPSE)
        _ = try await harness.channel.transmit(try .select(name: [0xA0, 0x00, 0x00, 0x00, 0x04, 0x10, 0x10]))
        // GENERATE AC before GET PROCESSING OPTIONS.
        let refused = try await harness.channel.transmit(
            try CommandAPDU(cla: 0x80, ins: 0xAE, p1: 0x80, p2: 0x00, data: [UInt8](repeating: 0, count: 66), ne: 256))
        #expect(refused.statusWord != .success)
        #expect(await events.rest().last == "error:apduFailure")
    }

    @Test func transmissionErrorWhenTheLinkBreaksMidTransaction() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        // vpcd's side: the phone is a virtual card; the reader selects the application, then sends a broken frame.
        var virtualCard = try VirtualCard(applet: harness.field.applet)
        _ = virtualCard.receive(.powerOn)
        _ = virtualCard.receive(.command(CommandAPDU.selectPPSE.bytes))
        _ = virtualCard.receive(
            .command(try CommandAPDU.select(name: [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10]).bytes))
        let output = virtualCard.receive(.command([0x80, 0xA8]))
        let problem = try #require(output.problem)
        harness.field.handle(.frameRejected(problem))
        #expect(
            await events.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "error:transmissionError",
            ])
    }

    @Test func sessionInvalidatedByTheSystem() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        var (_, events) = try await Self.authenticated(harness)
        harness.field.invalidate()
        #expect(await events.rest().last == "error:sessionInvalidated")
    }

    @Test func unknownWhenEmulationIsAskedBeforeAuthentication() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        let session = harness.session()
        await #expect(throws: ContactlessPaymentSessionError.unknown) { try await session.startEmulation() }
        var events = SessionEvents(session)
        await session.startPayment()
        _ = await events.authentication()
        await #expect(throws: ContactlessPaymentSessionError.unknown) { try await session.startEmulation() }
        await session.cancel()
    }

    @Test func posNotSupportedWhenTheReaderAcceptsNoneOfTheCardsApplications() async throws {
        let harness = try WalletHarness(applications: [.visa])
        _ = try await harness.digitize(.mastercard)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        #expect(await harness.tap().outcome.status != .onlineRequest)
        await harness.channel.removeCard()
        #expect(await events.rest().last == "error:posNotSupported")
    }

    @Test(arguments: [TestCard.Scheme.visa, .mastercard])
    func cardNotSupportedForCash(scheme: TestCard.Scheme) async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(scheme)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        #expect(await harness.tap(type: .cash).outcome.status != .onlineRequest)
        #expect(await events.rest().last == "error:cardNotSupported")
    }

    @Test func keychainErrorWhenTheStoreDoesNotOpen() async throws {
        let storage = InMemoryWalletStorage()
        let harness = try WalletHarness(storage: storage)
        let card = try await harness.digitize(.visa)
        let name = "card." + card.digitalCardID
        var sealed = try #require(storage.records[name])
        sealed[sealed.count - 1] ^= 0x01
        try storage.write(sealed, named: name)
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment()
        #expect(await events.rest() == ["error:keychainError"])
    }

    @Test func setDefaultCardFailureWhenTheDefaultCannotBeWritten() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try WalletHarness(storage: try FileWalletStorage(directory: directory))
        let card = try await harness.digitize(.visa)
        // The default card's record cannot be written: its name is taken by a directory.
        let defaultRecord = directory.appendingPathComponent("default-card")
        try FileManager.default.removeItem(at: defaultRecord)
        try FileManager.default.createDirectory(at: defaultRecord, withIntermediateDirectories: false)
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment(withDigitalCardID: card.digitalCardID)
        #expect(await events.rest() == ["error:setDefaultCardFailure"])
    }

    @Test func anyCommandsFromTheReaderGetAStatusWordNeverACrash() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.mastercard)
        var (session, events) = try await Self.authenticated(harness)
        try await session.startEmulation()
        var generator = SeededRandomNumberGenerator(seed: 8)
        await harness.channel.presentCard()
        _ = try await harness.channel.transmit(.selectPPSE)
        _ = try await harness.channel.transmit(try .select(name: [0xA0, 0x00, 0x00, 0x00, 0x04, 0x10, 0x10]))
        for _ in 0..<300 {
            let ins = [0xA4, 0xA8, 0xAE, 0xB2, 0xCA, 0x2A, 0x20, 0x00].randomElement(using: &generator) ?? 0
            let data = (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let command = try CommandAPDU(
                cla: ins == 0xA8 || ins == 0xAE || ins == 0xCA ? 0x80 : 0x00, ins: UInt8(ins),
                p1: UInt8.random(in: 0...255, using: &generator), p2: UInt8.random(in: 0...3, using: &generator),
                data: data, ne: 256)
            _ = try await harness.channel.transmit(command)
        }
        await session.cancel()
        let names = await events.rest()
        #expect(names.last?.hasPrefix("error:") == true)
    }

    @Test func everyErrorCodeHasATest() {
        // The codes reached above, by name: a new code without a test fails here.
        let tested: Set<String> = [
            "cancelled", "maxSessionDurationReached", "nfcPermissionNotAccepted", "systemEligibilityFailed",
            "keychainError", "noDefaultCard", "noPaymentKeys", "apduFailure", "transmissionError", "sessionInvalidated",
            "unknown", "deviceEnvironmentUnsafe", "setDefaultCardFailure", "invalidDigitalCardID",
            "authenticationExpired", "posNotSupported", "cardNotSupported", "cardNotActive",
            "authenticationKeyInvalidated", "biometricNotEnrolled", "authenticationFailed", "sessionInProgress",
        ]
        #expect(Set(ContactlessPaymentSessionError.Code.allCases.map(\.description)) == tested)
    }
}
