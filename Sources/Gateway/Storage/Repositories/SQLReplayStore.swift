public import Foundation
public import GatewayAPI
public import _SQLStorage

/// The reads the gateway has opened, in the gateway schema's `opened_reads` table, so every node behind a load
/// balancer refuses a replayed sealed card data.
///
/// Recording is one `INSERT … ON CONFLICT DO NOTHING RETURNING`: of any number of concurrent opens of one read id
/// exactly one gets its row back. Rows past their expiry are purged now and then (at most every
/// ``purgeInterval``, by the caller's clock), since the opener refuses those reads as expired anyway: when a read
/// is recorded here, and by the gateway's sweep (``purgeIfDue(now:)``), since a payment records its read in its
/// own transaction instead.
public struct SQLReplayStore: SealedCardDataReplayStore {
    /// Where `opened_reads` is; migrate ``GatewaySchema`` first.
    public let database: any SQLDatabase
    /// The least time between two purges of expired rows.
    public let purgeInterval: TimeInterval
    private let lastPurge = PurgeClock()

    /// A store over `database`.
    public init(database: any SQLDatabase, purgeInterval: TimeInterval = 10) {
        self.database = database
        self.purgeInterval = purgeInterval
    }

    /// Records that `readId` was opened; false when it was already (a replay). Expired rows are purged now and then.
    public func recordOpened(readId: UUID, expiresAt: Date, now: Date) async throws -> Bool {
        try await purgeIfDue(now: now)
        return try await database.transaction { executor in
            try await Self.recordOpened(readId: readId, expiresAt: expiresAt, on: executor)
        }
    }

    /// Forgets the reads expired at `now` (through the index on their expiry), unless that was done less than
    /// ``purgeInterval`` ago.
    public func purgeIfDue(now: Date) async throws {
        guard lastPurge.isDue(at: now, interval: purgeInterval) else { return }
        try await database.query(Self.purgeStatement, [.integer(now.millis)])
    }

    package static let purgeStatement = "DELETE FROM opened_reads WHERE expires_at <= $1"

    /// Records that `readId` was opened, as a statement of the caller's transaction; false when it was already.
    static func recordOpened(
        readId: UUID, expiresAt: Date, on executor: any SQLExecutor
    ) async throws(StorageError) -> Bool {
        try await executor.inserted(
            "INSERT INTO opened_reads (read_id, expires_at) VALUES ($1, $2) ON CONFLICT (read_id) DO NOTHING",
            [.text(readId.lowercaseText), .integer(expiresAt.millis)], returning: "read_id")
    }

    /// When this node last purged: a hint only, losing it costs one extra purge.
    private final class PurgeClock: @unchecked Sendable {
        private let lock = NSLock()
        private var last: Date?

        /// Whether a purge is due at `now`; if so, counts it as done.
        func isDue(at now: Date, interval: TimeInterval) -> Bool {
            lock.withLock {
                if let last, now.timeIntervalSince(last) < interval, now >= last { return false }
                last = now
                return true
            }
        }
    }
}
