public import Foundation

/// A ``SealedCardDataReplayStore`` in memory, for one process and tests.
///
/// Holds read ids and their expiry only, never card data; forgets reads past their expiry on each insertion.
public actor InMemorySealedCardDataReplayStore: SealedCardDataReplayStore {
    private var opened: [UUID: Date] = [:]

    /// Creates an empty store.
    public init() {}

    /// Records `readId` unless present; first forgets reads that expired before `now`.
    public func recordOpened(readId: UUID, expiresAt: Date, now: Date) -> Bool {
        opened = opened.filter { $0.value > now }
        guard opened[readId] == nil else { return false }
        opened[readId] = expiresAt
        return true
    }

    /// The number of reads remembered.
    public var count: Int { opened.count }
}
