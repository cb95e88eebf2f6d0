import ContactlessTesting
import EMV
import Issuer
import ReaderKernel
import SmartCard
import Testing
import Wallet

/// The emulation sheet that startEmulation puts up (Thales's modal presentation): the alert message it shows, and
/// the field detections the app no longer hears of while it is up.
@Suite struct EmulationSheetTests {
    @Test func theSheetShowsTheAlertMessageTheAppSets() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.mastercard)
        let session = harness.session()
        await session.setAlertMessage("Pay Café Mondial")
        var events = try await SessionEvents.authenticated(session)
        // The authentication prompt gives it as its reason; no sheet before emulation.
        #expect(harness.cardholder.promptsShown == ["Pay Café Mondial"])
        #expect(harness.phone.sheetUpdates.isEmpty)

        try await session.startEmulation()
        try await session.startEmulation()
        #expect(harness.phone.sheetUpdates == [.presented(alertMessage: "Pay Café Mondial")])
        await session.setAlertMessage("Hold near the terminal")
        #expect(harness.phone.sheetText == "Hold near the terminal")
        #expect(await session.alertMessage == "Hold near the terminal")

        #expect(await harness.tap().outcome.status == .onlineRequest)
        #expect(await events.rest().last == "transactionCompleted")
        // The payment ended: the sheet is gone, and a message set now has nothing to show on.
        await session.setAlertMessage("Paid")
        #expect(
            harness.phone.sheetUpdates == [
                .presented(alertMessage: "Pay Café Mondial"), .alertMessageChanged("Hold near the terminal"),
                .dismissed,
            ])
        #expect(harness.phone.sheetText == nil)
        #expect(await session.alertMessage == "Paid")
    }

    @Test func aCancelTakesTheSheetDownAndTheNextPaymentPutsItUpWithTheLatestMessage() async throws {
        let harness = try WalletHarness()
        let visa = try await harness.digitize(.visa)
        let mastercard = try await harness.digitize(.mastercard)
        let session = harness.session()
        var first = try await SessionEvents.authenticated(session, digitalCardID: visa.digitalCardID)
        try await session.startEmulation()
        await session.cancel()
        #expect(await first.rest().last == "error:cancelled")
        #expect(harness.phone.sheetUpdates == [.presented(alertMessage: "Hold near reader"), .dismissed])

        await session.setAlertMessage("Paying with Mastercard")
        var second = try await SessionEvents.authenticated(session, digitalCardID: mastercard.digitalCardID)
        #expect(harness.phone.sheetText == nil)
        try await session.startEmulation()
        #expect(harness.phone.sheetText == "Paying with Mastercard")
        await session.cancel()
        #expect(await second.rest().last == "error:cancelled")
        #expect(harness.phone.sheetText == nil)
    }

    @Test func aPaymentThatNeverEmulatedShowsNoSheet() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        let session = harness.session()
        await session.startPayment()
        var events = SessionEvents(session)
        await session.setAlertMessage("Waiting for Face ID")
        await events.authentication()?.cancel()
        #expect(await events.rest() == ["authenticationRequired", "error:cancelled"])
        #expect(harness.phone.sheetUpdates.isEmpty)
    }

    @Test func fieldDetectReportsTheReaderOnceAndNotAgainWhileTheSheetIsUp() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session)
        // The reader polls twice before emulation: no card either time, one posConnected (the field-detect cue).
        #expect(await harness.tap().outcome.status != .onlineRequest)
        #expect(await harness.tap().outcome.status != .onlineRequest)
        guard case .posConnected = await events.next() else {
            Issue.record("expected posConnected, got \(events.names)")
            return
        }
        try await session.startEmulation()
        // With the sheet up the reader's field comes and goes without a transaction, then pays: nothing reported
        // until the transaction completed.
        try await harness.readerPassesBy()
        try await harness.readerPassesBy()
        #expect(await harness.tap().outcome.status == .onlineRequest)
        #expect(
            await events.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "transactionCompleted",
            ])
    }

    @Test func withTheSheetUpFirstTheReadersArrivalIsReportedOnceUntilATapIsCutShort() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.mastercard)
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session)
        try await session.startEmulation()
        try await harness.readerPassesBy()
        guard case .posConnected = await events.next() else {
            Issue.record("expected posConnected, got \(events.names)")
            return
        }
        try await harness.readerPassesBy()
        // A tap cut short mid-transaction asks for another tap: that one's reader is reported again.
        await harness.channel.setFaults(FaultPlan(faults: [.cardRemoved(at: .instruction(.generateAC))]))
        #expect(await harness.tap().outcome.status != .onlineRequest)
        await harness.channel.setFaults(.none)
        try await harness.readerPassesBy()
        try await harness.readerPassesBy()
        #expect(await harness.tap().outcome.status == .onlineRequest)
        #expect(
            await events.rest() == [
                "authenticationRequired", "authenticationCompleted", "posConnected", "posDisconnected",
                "posConnected", "transactionCompleted",
            ])
    }
}
