import Foundation
import _SQLStorage

/// Idempotency keys in SQL: which request a key was first used for, and the response to replay.
///
/// A key is claimed by inserting its row (the primary key (merchant, key) lets exactly one of any number of
/// concurrent claims win); the winner runs the request and stores its response; the others wait for that response.
/// A claim whose runner died (its lease passed without a response) may be taken over — unless it made a payment
/// (the row names it): that payment's outcome is the key's answer, stored by its request or, after a crash, by the
/// sweep that fails and reverses it (``completeAbandoned(paymentId:status:body:on:)``), and until then a retry
/// waits as for a running request.
struct IdempotencyStore: Sendable {
    /// What a claim found.
    enum Claim: Sendable, Equatable {
        /// The caller runs the request.
        case claimed
        /// The key's request ran: replay this response.
        case completed(status: Int, body: [UInt8])
        /// The key was used with other parameters.
        case reused
        /// Another request with the key is running.
        case inProgress
    }

    /// How long a key is kept and its response replayed: 24 hours unless configured
    /// (``GatewayConfiguration/idempotencyRetention``). Older keys are free for a new request, and the sweep deletes
    /// them (``purgeExpired(now:limit:on:)``), so the table holds one retention's worth of keys.
    let retention: TimeInterval

    /// 24 hours, as Stripe keeps its keys.
    static let defaultRetention: TimeInterval = 24 * 3600

    /// Creates the store.
    init(retention: TimeInterval = Self.defaultRetention) {
        self.retention = retention
    }

    /// Claims `key` for the request with `requestHash` at `now`, with a lease of `lease`; with an `answer`, stores
    /// it as the key's answer in the same transaction (for a request refused before it wrote anything, whose
    /// refusal is the key's answer unless another request has the key).
    ///
    /// A bare claim does not wait for the disk: nothing outside learns of it before the request's own durable
    /// commits (which make it durable too). A claim with its answer is on disk when this returns, and a stored
    /// response is replayed only once it is on disk.
    func claim(
        merchantId: String, key: String, requestHash: [UInt8], now: Date, lease: TimeInterval,
        answer: (status: Int, body: [UInt8])? = nil, on database: any SQLDatabase
    ) async throws -> Claim {
        let body: @Sendable (any SQLExecutor) async throws -> Claim = { executor in
            let claim = try await self.claim(
                merchantId: merchantId, key: key, requestHash: requestHash, now: now, lease: lease, on: executor)
            if claim == .claimed, let answer {
                try await complete(
                    merchantId: merchantId, key: key, status: answer.status, body: answer.body, on: executor)
            }
            return claim
        }
        let claim = try await answer == nil ? database.transactionDurableLater(body) : database.transaction(body)
        // The response may come from a commit not yet on disk.
        if case .completed = claim { try await database.waitUntilDurable() }
        return claim
    }

    /// Claims `key` on `executor`, a transaction's: its row inserted (or taken over), or what is there already.
    /// A caller that sees `.completed` waits for the disk before replaying the response (it may be a commit of a
    /// group not yet synced).
    func claim(
        merchantId: String, key: String, requestHash: [UInt8], now: Date, lease: TimeInterval,
        paymentId: String? = nil, on executor: any SQLExecutor
    ) async throws -> Claim {
        let inserted = try await executor.inserted(
            """
            INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, created_at, locked_until,
                payment_id) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (merchant_id, idempotency_key) DO NOTHING
            """,
            [
                .text(merchantId), .text(key), .blob(requestHash), .integer(now.millis),
                .integer(now.addingTimeInterval(lease).millis), .text(paymentId),
            ], returning: "merchant_id")
        if inserted { return .claimed }
        guard
            let row = try await executor.query(
                """
                SELECT request_hash, response_status, response_body, created_at, locked_until, payment_id
                FROM idempotency_keys WHERE merchant_id = $1 AND idempotency_key = $2\(executor.dialect.forUpdate)
                """, [.text(merchantId), .text(key)]
            ).first
        else { return .inProgress }
        let createdAt = Date(millis: try row.integer("created_at"))
        let expired = now.timeIntervalSince(createdAt) > retention
        let lockedUntil = try row.integer("locked_until")
        // A runner that died before making a payment; one that made a payment is answered by its outcome.
        let stalled =
            try row.optionalInteger("response_status") == nil && lockedUntil < now.millis
            && row.optionalText("payment_id") == nil
        if expired || stalled {
            // A fresh use of an old key, or a runner that died: start over with this request.
            try await executor.query(
                """
                UPDATE idempotency_keys SET request_hash = $3, response_status = NULL, response_body = NULL,
                    created_at = $4, locked_until = $5, payment_id = $6 WHERE merchant_id = $1 AND idempotency_key = $2
                """,
                [
                    .text(merchantId), .text(key), .blob(requestHash), .integer(now.millis),
                    .integer(now.addingTimeInterval(lease).millis), .text(paymentId),
                ])
            return .claimed
        }
        guard try row.blob("request_hash") == requestHash else { return .reused }
        guard let status = try row.optionalInteger("response_status") else { return .inProgress }
        return .completed(status: status, body: try row.optionalBlob("response_body") ?? [])
    }

    /// Stores the response of the request that claimed `key`.
    func complete(
        merchantId: String, key: String, status: Int, body: [UInt8], on executor: any SQLExecutor
    ) async throws(StorageError) {
        try await executor.query(
            """
            UPDATE idempotency_keys SET response_status = $3, response_body = $4
            WHERE merchant_id = $1 AND idempotency_key = $2
            """, [.text(merchantId), .text(key), .integer(status), .blob(body)])
    }

    /// Names the payment the request holding `key` made (a key claimed before the request ran).
    func link(
        merchantId: String, key: String, paymentId: String, on executor: any SQLExecutor
    ) async throws(StorageError) {
        try await executor.query(
            "UPDATE idempotency_keys SET payment_id = $3 WHERE merchant_id = $1 AND idempotency_key = $2",
            [.text(merchantId), .text(key), .text(paymentId)])
    }

    /// Stores the answer of the key whose request made `paymentId` and died before answering; a key already
    /// answered keeps its answer.
    func completeAbandoned(
        paymentId: String, status: Int, body: [UInt8], on executor: any SQLExecutor
    ) async throws(StorageError) {
        try await executor.query(
            """
            UPDATE idempotency_keys SET response_status = $2, response_body = $3
            WHERE payment_id = $1 AND response_status IS NULL
            """, [.text(paymentId), .integer(status), .blob(body)])
    }

    /// Deletes up to `limit` keys past the retention at `now`, oldest first, found through the index on creation
    /// time: a purge costs what it deletes, not what the table holds.
    func purgeExpired(now: Date, limit: Int, on database: any SQLDatabase) async throws(StorageError) {
        try await database.query(
            """
            DELETE FROM idempotency_keys WHERE (merchant_id, idempotency_key) IN (
                SELECT merchant_id, idempotency_key FROM idempotency_keys WHERE created_at < $1
                ORDER BY created_at LIMIT $2)
            """, [.integer(now.addingTimeInterval(-retention).millis), .integer(limit)])
    }
}
