public import Foundation

/// A ``TransactionReplayStore`` in memory, for one process and for tests.
///
/// Forgets ids once their expiry has passed by the injected clock, so memory stays bounded by the ids of one
/// signing-time window.
public actor InMemoryTransactionReplayStore: TransactionReplayStore {
    private var expiries: [String: Date] = [:]
    private var nextPrune = Date.distantPast
    private let now: @Sendable () -> Date

    /// An empty store whose notion of "expired" follows `now`.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Records `transactionId` until `expiresAt`, throwing ``ApplePayError/Code/tokenReplayed`` if it is known.
    public func record(transactionId: String, expiresAt: Date) throws {
        let current = now()
        if current >= nextPrune {
            expiries = expiries.filter { $0.value > current }
            nextPrune = current.addingTimeInterval(60)
        }
        // Ids are hex in either case: one token must not pass twice by changing the case of its id.
        let key = transactionId.lowercased()
        if let known = expiries[key], known > current {
            throw ApplePayError(code: .tokenReplayed, message: "a token with this transactionId was already accepted")
        }
        expiries[key] = expiresAt
    }

    /// The number of ids remembered now (expired ones may linger until the next pruning).
    public var count: Int { expiries.count }
}
