public import Foundation

/// Remembers which reads were opened, so each sealed card data opens at most once.
///
/// The gateway backs it with its database (a unique key on the read id), so every node behind a load balancer
/// sees the same reads; ``InMemorySealedCardDataReplayStore`` serves one process and tests.
public protocol SealedCardDataReplayStore: Sendable {
    /// Records `readId` as opened unless it already was, atomically; returns whether it was newly recorded.
    ///
    /// - Parameters:
    ///   - expiresAt: when the read can no longer be opened anyway (its creation time plus the allowed age), after
    ///     which the store may forget it.
    ///   - now: the opener's current time, so the store forgets reads by the same clock that refuses them as
    ///     expired (a store with its own clock could forget a read the opener still accepts).
    func recordOpened(readId: UUID, expiresAt: Date, now: Date) async throws -> Bool
}
