import CardEmulator
import ContactlessTesting
import Crypto
import EMV
import Foundation
import Gateway
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Testing
import TestMode
import Wallet

// A payment written the way Thales's NFC wallet SDK guide writes it ("Implement payment": start the payment, then
// handle each event of the session's eventStream until transactionCompleted or errorEncountered; "Display the
// transaction context"), with the SDK's import replaced by `import Wallet`. The session is Thales's `init()`: the
// app's wallet, configured once at start-up, on the phone's field.

final class ThalesStylePayment: @unchecked Sendable {  // used from one task at a time
    let session = ContactlessPaymentSession()
    var transactionContext: TransactionContext?
    var eventNames: [String] = []

    func payWithDefaultCard() async throws {
        try await session.requestAuthorization()

        // start payment with the default card
        // use case: double-click
        await session.startPayment()

        for await event in session.eventStream {
            eventNames.append(String(describing: event).components(separatedBy: "(").first ?? "")
            switch event {
            case .authenticationRequired(let authentication):
                await authentication.proceed()
            case .authenticationCompleted:
                try await session.startEmulation()
            case .posConnected, .posDisconnected:
                break
            case .transactionCompleted(let transactionContext):
                self.transactionContext = transactionContext
            case .errorEncountered(let error):
                throw error
            }
        }
    }
}

/// The Thales-guide payment above, on the app's wallet digitized at the gateway's issuer, tapped on a merchant's Tap to
/// Pay reader, authorized by the live gateway.
@Suite("Integration: a payment written as Thales's guide writes it", .serialized)
struct ThalesGuideTests {
    @Test("before the wallet is configured, a session says the system is not eligible")
    func notConfigured() async throws {
        guard DigitalWallet.shared == nil else { return }  // another test of this process configured it first
        let session = ContactlessPaymentSession()
        await #expect(throws: ContactlessPaymentSessionError.self) { try await session.requestAuthorization() }
    }

    @Test("init(), startPayment(), the eventStream loop: the reader reads the default card and the PSP approves")
    func guidePayment() async throws {
        try await TestGateway.with { gateway in
            let sheet = SheetWatch()
            let (wallet, outbox) = try TapToPayWalletTests.wallet(on: gateway, device: sheet.device)
            DigitalWallet.configure(wallet.configuration)
            let shared = try #require(DigitalWallet.shared)
            let funding = try #require(TestCards.card(.approve, .visa))
            let card = try await TapToPayWalletTests.digitize(funding, into: shared, codes: outbox)

            let merchant = try await gateway.merchant()
            let (interface, readerSession) = try await TapToPayWalletTests.merchantPhone(gateway, merchant)

            let payment = ThalesStylePayment()
            let paying = Task { try await payment.payWithDefaultCard() }
            // The phone is held to the reader once the emulation sheet is up.
            await sheet.presented()
            await interface.tap(LoopbackChannel(applet: CardEmulationField.shared.applet))
            let read = try await readerSession.readPaymentCard(
                PaymentCardTransactionRequest(amount: 4.2, currencyCode: "EUR"))
            try await paying.value

            #expect(
                payment.eventNames == [
                    "authenticationRequired", "authenticationCompleted", "posConnected", "transactionCompleted",
                ])
            #expect(payment.transactionContext?.digitalCardID == card.digitalCardID)
            #expect(payment.transactionContext?.amount == 420)
            let authorized = try await gateway.authorize(read, minorUnits: 420, for: merchant).get()
            #expect(authorized.status == .succeeded && authorized.card?.last4 == card.details.lastFour)
        }
    }
}

/// Waits for the wallet's emulation sheet to go up.
final class SheetWatch: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }

    /// A device whose cardholder always authenticates and whose sheet going up is reported here.
    var device: DeviceEnvironment {
        let continuation = self.continuation
        return DeviceEnvironment(
            authenticateUser: { _ in .success },
            updateEmulationSheet: { update in
                if case .presented = update { continuation.yield() }
            })
    }

    /// Returns once the sheet is up.
    func presented() async {
        for await _ in stream { return }
    }
}
