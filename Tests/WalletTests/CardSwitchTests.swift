import CardEmulator
import ContactlessTesting
import EMV
import ISO8583
import Issuer
import ReaderKernel
import Testing
import Wallet

/// Scenario A: the cardholder starts paying with one card, cancels, and pays with another on the same session.
@Suite struct CardSwitchTests {
    /// Where the first payment is when the cardholder cancels it.
    enum CancelPoint: String, CaseIterable, CustomTestStringConvertible {
        /// The authentication prompt was not answered.
        case awaitingAuthentication
        /// The card was on the field, emulating, no reader yet.
        case emulating

        var testDescription: String { rawValue }
    }

    @Test(arguments: CancelPoint.allCases)
    func afterACancelTheSameSessionPaysWithTheNextCard(cancelPoint: CancelPoint) async throws {
        let harness = try WalletHarness()
        let cardA = try await harness.digitize(.visa)
        let cardB = try await harness.digitize(.mastercard)
        let session = harness.session()

        await session.startPayment(withDigitalCardID: cardA.digitalCardID)
        var first = SessionEvents(session)
        let staleAuthentication = try #require(await first.authentication())
        if cancelPoint == .emulating {
            await staleAuthentication.proceed()
            guard case .authenticationCompleted = await first.next() else {
                Issue.record("expected authenticationCompleted, got \(first.names)")
                return
            }
            try await session.startEmulation()
        }
        await session.cancel()
        #expect(await first.rest().last == "error:cancelled")

        // The same session, the other card.
        await session.startPayment(withDigitalCardID: cardB.digitalCardID)
        var second = SessionEvents(session)
        let authentication = try #require(await second.authentication())
        // The first payment's authentication request is spent: answering it now does nothing to the second.
        await staleAuthentication.proceed()
        await staleAuthentication.cancel()
        await authentication.proceed()
        guard case .authenticationCompleted = await second.next() else {
            Issue.record("expected authenticationCompleted, got \(second.names)")
            return
        }
        try await session.startEmulation()
        let result = await harness.tap(4_200)
        #expect(result.outcome.status == .onlineRequest)
        #expect(
            await second.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "transactionCompleted",
            ])

        // The reader read card B: its token number, its application, its key; the issuer approves its cryptogram.
        let data = try #require(result.outcome.authorizationData)
        #expect(data.pan.masked == cardB.details.maskedDPAN)
        #expect(data.pan.masked != cardA.details.maskedDPAN)
        #expect(second.completed?.aid == "A0000000041010")
        #expect(second.completed?.scheme == .mastercard)
        #expect(second.completed?.amount == 4_200)
        let (_, response) = try await IssuerRoundTripTests.authorize(harness, data, minorUnits: 4_200)
        #expect(response[.responseCode]?.text == "00")
        let manager = harness.wallet.digitalCardManager
        #expect(try await manager.digitalCard(forID: cardA.digitalCardID)?.paymentKeyInfo.remainingKeys == 5)
        #expect(try await manager.digitalCard(forID: cardB.digitalCardID)?.paymentKeyInfo.remainingKeys == 4)
        #expect(try await manager.defaultCard()?.digitalCardID == cardB.digitalCardID)
        // The cardholder authenticated once per payment that reached the prompt, never for the stale request.
        #expect(harness.cardholder.promptsShown.count == (cancelPoint == .emulating ? 2 : 1))
    }

    @Test func aPaymentThatEndedLetsTheSessionPayAgain() async throws {
        let harness = try WalletHarness()
        let visa = try await harness.digitize(.visa)
        let mastercard = try await harness.digitize(.mastercard)
        let session = harness.session()
        var first = try await SessionEvents.authenticated(session, digitalCardID: visa.digitalCardID)
        try await session.startEmulation()
        #expect(await harness.tap().outcome.authorizationData?.pan.masked == visa.details.maskedDPAN)
        #expect(await first.rest().last == "transactionCompleted")

        var second = try await SessionEvents.authenticated(session, digitalCardID: mastercard.digitalCardID)
        try await session.startEmulation()
        #expect(await harness.tap().outcome.authorizationData?.pan.masked == mastercard.details.maskedDPAN)
        #expect(await second.rest().last == "transactionCompleted")
        #expect(second.completed?.scheme == .mastercard)
    }

    @Test func startingWhileAPaymentRunsChangesNothing() async throws {
        let harness = try WalletHarness()
        let visa = try await harness.digitize(.visa)
        let mastercard = try await harness.digitize(.mastercard)
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session, digitalCardID: visa.digitalCardID)
        await session.startPayment(withDigitalCardID: mastercard.digitalCardID)
        try await session.startEmulation()
        #expect(await harness.tap().outcome.authorizationData?.pan.masked == visa.details.maskedDPAN)
        #expect(
            await events.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "transactionCompleted",
            ])
        #expect(try await harness.wallet.digitalCardManager.defaultCard()?.digitalCardID == visa.digitalCardID)
    }
}
