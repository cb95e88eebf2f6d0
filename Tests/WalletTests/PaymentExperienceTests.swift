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

/// The three payment experiences, each paying the real reader kernel over the loopback.
@Suite struct PaymentExperienceTests {
    @Test func doubleClickPaysWithTheDefaultCard() async throws {
        let harness = try WalletHarness()
        let card = try await harness.digitize(.mastercard)
        #expect(card.isDefaultCard)
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment()
        let authentication = try #require(await events.authentication())
        await authentication.proceed()
        guard case .authenticationCompleted = await events.next() else {
            Issue.record("expected authenticationCompleted, got \(events.names)")
            return
        }
        try await session.startEmulation()
        let result = await harness.tap(1_234)
        #expect(result.outcome.status == .onlineRequest)
        guard case .posConnected = await events.next(), case .transactionCompleted(let context) = await events.next()
        else {
            Issue.record("expected posConnected, transactionCompleted; got \(events.names)")
            return
        }
        #expect(context.aid == "A0000000041010")
        #expect(context.amount == 1_234)
        #expect(context.currency == .eur)
        #expect(context.scheme == .mastercard)
        #expect(context.isTransit == false)
        #expect(context.date == (try EMVDate(harness.clock.now, timeZone: TimeZone(identifier: "UTC") ?? .current)))
        #expect(await events.next() == nil)
        // The key paid once: it is gone from the wallet's store.
        let after = try #require(await harness.wallet.digitalCardManager.digitalCard(forID: card.digitalCardID))
        #expect(after.paymentKeyInfo.remainingKeys == card.paymentKeyInfo.remainingKeys - 1)
        #expect(context.atc == 1)
        #expect(harness.cardholder.promptsShown.count == 1)
    }

    @Test func manualModePaysWithTheChosenCardWhichBecomesTheDefault() async throws {
        let harness = try WalletHarness()
        let mastercard = try await harness.digitize(.mastercard)
        let visa = try await harness.digitize(.visa)
        #expect(!visa.isDefaultCard)
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session, digitalCardID: visa.digitalCardID)
        try await session.startEmulation()
        let result = await harness.tap(2_500)
        #expect(result.outcome.status == .onlineRequest)
        #expect(
            await events.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "transactionCompleted",
            ])
        // Visa qVSDC: the context comes from the PDOL data of GET PROCESSING OPTIONS.
        #expect(events.completed?.aid == "A0000000031010")
        #expect(events.completed?.amount == 2_500)
        #expect(events.completed?.currencyCode == 978)
        #expect(events.completed?.scheme == .visa)
        let manager = harness.wallet.digitalCardManager
        #expect(try await manager.defaultCard()?.digitalCardID == visa.digitalCardID)
        #expect(try await manager.digitalCard(forID: mastercard.digitalCardID)?.isDefaultCard == false)
        #expect(try await manager.digitalCard(forID: visa.digitalCardID)?.paymentKeyInfo.remainingKeys == 4)
    }

    @Test func fieldDetectStartsEmulationOnPOSConnected() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session)
        // The reader polls before emulation: it finds no card, and the phone reports the reader.
        let first = await harness.tap()
        #expect(first.outcome.status != .onlineRequest)
        guard case .posConnected = await events.next() else {
            Issue.record("expected posConnected, got \(events.names)")
            return
        }
        try await session.startEmulation()
        try await session.startEmulation()  // callable more than once
        let second = await harness.tap()
        #expect(second.outcome.status == .onlineRequest)
        #expect(
            await events.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "transactionCompleted",
            ])
    }

    @Test func aReaderThatLosesThePhoneMidTransactionSeesPOSDisconnectedThenPaysOnTheNextTap() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.mastercard)
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session)
        try await session.startEmulation()
        await harness.channel.setFaults(FaultPlan(faults: [.cardRemoved(at: .instruction(.generateAC))]))
        let torn = await harness.tap()
        #expect(torn.outcome.status != .onlineRequest)
        await harness.channel.setFaults(.none)
        let again = await harness.tap()
        #expect(again.outcome.status == .onlineRequest)
        #expect(
            await events.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "posDisconnected", "posConnected",
                "transactionCompleted",
            ])
    }

    @Test func aSecondConcurrentSessionIsRefusedAndTheNextOneRuns() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.mastercard)
        let first = harness.session()
        var firstEvents = SessionEvents(first)
        await first.startPayment()
        _ = await firstEvents.authentication()
        let second = harness.session()
        var secondEvents = SessionEvents(second)
        await second.startPayment()
        #expect(await secondEvents.rest() == ["error:sessionInProgress"])
        await first.cancel()
        #expect(await firstEvents.rest() == ["authenticationRequired", "error:cancelled"])
        let third = harness.session()
        var thirdEvents = SessionEvents(third)
        await third.startPayment()
        #expect(await thirdEvents.authentication() != nil)
        await third.cancel()
    }
}
