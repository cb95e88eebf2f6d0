import Foundation
import GatewayAPI
import Logging
import ServiceLifecycle
public import _SQLStorage

/// Which reader tokens and sessions are revoked: per device, per merchant user, or all of a merchant's, each as
/// "issued up to this second" (`token_revocations`), so a revocation is one row however many tokens it covers.
///
/// Every request checks its token against a copy held in memory, not the database: the copy learns this node's
/// revocations at once and other nodes' within ``interval`` (it polls for rows changed since its last look). A
/// token issued in the same second as a revocation, just after it, is revoked too: token times are whole seconds.
public final class TokenRevocations: Service, @unchecked Sendable {
    private let database: any SQLDatabase
    private let interval: Duration
    private let logger: Logger
    /// Opens once the schema is migrated; nil when it already is.
    private let startup: StartupGate?
    private let lock = NSLock()
    /// Revoked up to (seconds since 1970), by merchant, then by scope key (`device:…`, `user:…`, `merchant`).
    private var revoked: [String: [String: Int]] = [:]
    /// The latest `changed_at` seen, in milliseconds.
    private var seenUpTo = -1

    /// A copy of `database`'s revocations, refreshed every `interval` while it runs as a service.
    public convenience init(database: any SQLDatabase, interval: Duration = .seconds(1), logger: Logger) {
        self.init(database: database, interval: interval, logger: logger, startup: nil)
    }

    init(database: any SQLDatabase, interval: Duration, logger: Logger, startup: StartupGate?) {
        self.database = database
        self.interval = interval
        self.logger = logger
        self.startup = startup
    }

    /// Whether a token of `merchantId` issued at `issuedAt` (seconds) for `deviceId` or `userId` is revoked.
    public func isRevoked(merchantId: String, deviceId: String?, userId: String?, issuedAt: Int) -> Bool {
        lock.withLock {
            guard let scopes = revoked[merchantId] else { return false }
            for key in ["merchant", deviceId.map { "device:" + $0 }, userId.map { "user:" + $0 }] {
                if let key, let upTo = scopes[key], issuedAt <= upTo { return true }
            }
            return false
        }
    }

    /// Revokes the tokens `request` names for `merchantId`, issued up to `now`.
    /// - Throws: ``GatewayAPIError/Code/invalidRequest`` for a request naming both a device and a user.
    public func revoke(
        _ request: TokenRevocationRequest, merchantId: String, actor: String, now: Date
    ) async throws -> TokenRevocation {
        let scope: TokenRevocation.Scope
        let subject: String?
        switch (request.deviceId, request.userId) {
        case (let device?, nil): (scope, subject) = (.device, device)
        case (nil, let user?): (scope, subject) = (.user, user)
        case (nil, nil): (scope, subject) = (.merchant, nil)
        case (_?, _?):
            throw GatewayAPIError(code: .invalidRequest, message: "revoke a device's or a user's tokens, not both")
        }
        guard (subject?.utf8.count ?? 1) <= 255 else {
            throw GatewayAPIError(code: .invalidRequest, message: "the device or user id is longer than 255 bytes")
        }
        let second = Int(now.timeIntervalSince1970.rounded(.down))
        try await database.transaction { executor in
            try await executor.query(
                """
                INSERT INTO token_revocations (merchant_id, scope, subject, revoked_up_to, changed_at)
                VALUES ($1, $2, $3, $4, $5) ON CONFLICT (merchant_id, scope, subject)
                DO UPDATE SET revoked_up_to = excluded.revoked_up_to, changed_at = excluded.changed_at
                """,
                [
                    .text(merchantId), .text(scope.rawValue), .text(subject ?? ""), .integer(second),
                    .integer(now.millis),
                ])
            try await AuditLog.record(
                on: executor, at: now, actor: actor, entity: "merchant", id: merchantId, action: "tokensRevoked",
                detail: "\(scope.rawValue)\(subject.map { " " + $0 } ?? "")")
        }
        remember(merchantId: merchantId, key: Self.key(scope, subject), upTo: second)
        return TokenRevocation(
            scope: scope, subject: subject, revokedAt: Date(timeIntervalSince1970: TimeInterval(second)))
    }

    /// Loads the rows changed since the last look.
    public func refresh() async throws {
        let since = lock.withLock { seenUpTo }
        // A row's changed_at is its writer's clock: look back a little, in case another node's commit of an
        // earlier time landed after this node read past it.
        let rows = try await database.query(
            """
            SELECT merchant_id, scope, subject, revoked_up_to, changed_at FROM token_revocations
            WHERE changed_at >= $1
            """, [.integer(max(-1, since - 60_000))])
        for row in rows {
            guard let scope = TokenRevocation.Scope(rawValue: try row.text("scope")) else { continue }
            let subject = try row.text("subject")
            remember(
                merchantId: try row.text("merchant_id"), key: Self.key(scope, subject.isEmpty ? nil : subject),
                upTo: try row.integer("revoked_up_to"))
            let changed = try row.integer("changed_at")
            lock.withLock { seenUpTo = max(seenUpTo, changed) }
        }
    }

    /// Polls every ``interval`` until the service group shuts down.
    public func run() async throws {
        await StartupGate.repeatEvery(
            interval, after: startup, logger: logger, failure: "token revocations not refreshed"
        ) {
            try await refresh()
        }
    }

    private func remember(merchantId: String, key: String, upTo: Int) {
        lock.withLock { revoked[merchantId, default: [:]][key] = max(revoked[merchantId]?[key] ?? .min, upTo) }
    }

    private static func key(_ scope: TokenRevocation.Scope, _ subject: String?) -> String {
        switch scope {
        case .merchant: "merchant"
        case .device, .user: "\(scope.rawValue):\(subject ?? "")"
        }
    }
}
