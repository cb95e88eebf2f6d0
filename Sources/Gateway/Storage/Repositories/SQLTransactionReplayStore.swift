import ApplePay
import Foundation
public import _SQLStorage

/// The Apple Pay transactionIds the gateway accepted, in the gateway schema's `applepay_transactions` table, so
/// every node behind a load balancer refuses a replayed token.
///
/// Recording is one `INSERT … ON CONFLICT DO UPDATE … WHERE expired RETURNING`: of concurrent submissions of one
/// token exactly one gets the row back, and an id whose time is over may be recorded again (its token is refused as
/// expired before it gets here anyway). Expired rows are purged now and then.
public struct SQLTransactionReplayStore: TransactionReplayStore {
    /// Where `applepay_transactions` is; migrate ``GatewaySchema`` first.
    public let database: any SQLDatabase
    /// The clock that says whether a recorded id has expired.
    public let clock: @Sendable () -> Date

    /// A store over `database`.
    public init(database: any SQLDatabase, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.clock = clock
    }

    /// Records `transactionId` until `expiresAt`.
    /// - Throws: `ApplePayError.tokenReplayed` when it is recorded and not expired; ``StorageError``.
    public func record(transactionId: String, expiresAt: Date) async throws {
        let now = clock().millis
        let rows = try await database.query(
            """
            INSERT INTO applepay_transactions (transaction_id, expires_at) VALUES ($1, $2)
            ON CONFLICT (transaction_id) DO UPDATE SET expires_at = excluded.expires_at
            WHERE applepay_transactions.expires_at <= $3 RETURNING transaction_id
            """, [.text(transactionId.lowercased()), .integer(expiresAt.millis), .integer(now)])
        guard !rows.isEmpty else {
            throw ApplePayError(code: .tokenReplayed, message: "the token's transactionId was accepted before")
        }
        // Cheap enough to run with each record: the index on expires_at finds nothing most of the time.
        try await database.query(
            "DELETE FROM applepay_transactions WHERE expires_at <= $1 AND transaction_id <> $2",
            [.integer(now), .text(transactionId.lowercased())])
    }
}
