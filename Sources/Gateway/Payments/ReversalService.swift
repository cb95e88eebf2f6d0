import Foundation
import Logging
import ServiceLifecycle

/// The background half of "reversed until acknowledged": every ``interval`` it ends payments left in flight by a
/// crashed node or past their PIN window, and sends the reversals that are due. At start it runs at once, so a
/// restarted gateway reverses what it had in flight before serving new payments for long. It also forgets opened
/// reads past their expiry (payments record theirs without purging) and idempotency keys past their retention.
struct ReversalService: Service {
    let payments: PaymentService
    let openedReads: SQLReplayStore
    let idempotencyKeys: IdempotencyStore
    let interval: Duration
    /// How old a `processing` payment must be before it is taken as abandoned: longer than any live request's
    /// issuer round trip.
    let abandonedAfter: TimeInterval
    /// The same for a payment an earlier run left behind (last changed before ``startedAt``): a lone node may take
    /// those at once, as nothing of its own is still running; nodes sharing a database need ``abandonedAfter``.
    let recoverAfter: TimeInterval
    /// When this node started, by the payments' clock.
    let startedAt: Date
    let logger: Logger
    /// Opens when the schema is migrated.
    let startup: StartupGate

    func run() async throws {
        await StartupGate.repeatEvery(interval, after: startup, logger: logger, failure: "reversal sweep failed") {
            let now = payments.clock()
            let recovered = try await payments.recoverAbandoned(before: cutoff(at: now))
            let reversed = try await payments.sendDueReversals()
            try await openedReads.purgeIfDue(now: now)
            // A second's worth of keys at well over the gateway's peak rate, so the table never grows.
            try await idempotencyKeys.purgeExpired(now: now, limit: 5_000, on: payments.database)
            if recovered + reversed > 0 {
                logger.info("reversal sweep", metadata: ["recovered": "\(recovered)", "reversed": "\(reversed)"])
            }
        }
    }

    /// Payments last changed before this are abandoned: this run's after ``abandonedAfter``, an earlier run's after
    /// ``recoverAfter`` (never sooner than ``abandonedAfter`` for those changed since the start).
    func cutoff(at now: Date) -> Date {
        max(now.addingTimeInterval(-abandonedAfter), min(startedAt, now.addingTimeInterval(-recoverAfter)))
    }
}
