import Foundation
import ServiceLifecycle
import Wallet

/// Runs a wallet's payment sessions one after another, as an app whose user pays again and again: authenticate,
/// start emulation at once (double-click), wait for the reader; replenish when the keys run out.
final class WalletPayer: Service, @unchecked Sendable {
    /// What the sessions did.
    struct Summary: Encodable {
        var sessions = 0
        var transactions = 0
        /// The completed transactions: AID, amount in minor units, currency code, ATC.
        var completed: [Completed] = []
        /// The error codes sessions ended with, in order.
        var errors: [String] = []
    }

    struct Completed: Encodable {
        var aid: String
        var amount: Int
        var currencyCode: Int
        var atc: Int
    }

    private let wallet: DigitalWallet
    private let field: CardEmulationField
    private let payments: Int
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var state = Summary()

    init(wallet: DigitalWallet, field: CardEmulationField, payments: Int, log: @escaping @Sendable (String) -> Void) {
        self.wallet = wallet
        self.field = field
        self.payments = payments
        self.log = log
    }

    var summary: Summary { lock.withLock { state } }

    /// Serves sessions until `payments` transactions completed, or graceful shutdown.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled, self.payments == 0 || self.summary.transactions < self.payments {
                await self.serveOneSession()
            }
        }
    }

    private func serveOneSession() async {
        let session = ContactlessPaymentSession(wallet: wallet, field: field)
        lock.withLock { state.sessions += 1 }
        await session.startPayment()
        for await event in session.eventStream {
            log("session \(summary.sessions): \(event)")
            switch event {
            case .authenticationRequired(let authentication): await authentication.proceed()
            case .authenticationCompleted: try? await session.startEmulation()
            case .transactionCompleted(let context):
                lock.withLock {
                    state.transactions += 1
                    state.completed.append(
                        Completed(
                            aid: context.aid, amount: context.amount, currencyCode: context.currencyCode,
                            atc: Int(context.atc)))
                }
            case .errorEncountered(let error):
                lock.withLock { state.errors.append(error.code.description) }
                if error.code == .noPaymentKeys, let card = try? await wallet.digitalCardManager.defaultCard() {
                    _ = try? await wallet.replenishmentService.replenish(
                        digitalCardID: card.digitalCardID, isForced: true)
                }
            case .posConnected, .posDisconnected: break
            }
        }
        // Cancelled while waiting (shutdown): end the session so its card leaves the field.
        await session.cancel()
    }
}
