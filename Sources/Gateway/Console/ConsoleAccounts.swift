import Crypto
import EMV
import Foundation
import HummingbirdBcrypt
import _SQLStorage

/// The console's accounts, in the gateway's database: merchant users' passwords (bcrypt, cost 12), one-time
/// invitations that set them, server-side sessions and the login throttle. Secrets (passwords, invitation and
/// session tokens) are never stored or logged in clear: passwords as bcrypt hashes, tokens as SHA-256.
public struct ConsoleAccounts: Sendable {
    /// How long an invitation link works.
    public static let invitationLifetime: TimeInterval = 72 * 3_600
    /// A session ends after this long without a request by default (``idleTimeout``)…
    public static let defaultIdleTimeout: TimeInterval = 30 * 60
    /// …and after this long in any case.
    public static let absoluteTimeout: TimeInterval = 12 * 3_600
    /// Failed sign-ins allowed per account and per address within ``throttleWindow``; the next is refused until the
    /// window ends.
    public static let maximumFailures = 5
    /// The throttle's window.
    public static let throttleWindow: TimeInterval = 15 * 60
    /// The shortest password accepted.
    public static let minimumPasswordLength = 12

    let database: any SQLDatabase
    /// bcrypt's cost: 12 in production (about 0.25 s a hash on this machine); tests may lower it.
    let bcryptCost: UInt8
    /// How long a session lasts without a request.
    let idleTimeout: TimeInterval

    /// Creates the store.
    public init(database: any SQLDatabase, bcryptCost: UInt8 = 12, idleTimeout: TimeInterval = defaultIdleTimeout) {
        self.database = database
        self.bcryptCost = bcryptCost
        self.idleTimeout = idleTimeout
    }

    // MARK: - Invitations

    /// A one-time invitation for `userId` to set a password; the token is returned this once and stored hashed.
    /// - Throws: ``DomainError/Code/notFound`` for an unknown or deactivated user.
    public func invite(userId: String, actor: String, now: Date = Date()) async throws -> String {
        let token = Self.randomToken()
        try await database.transaction { executor in
            guard let user = try await Self.user(id: userId, on: executor), user.deactivatedAt == nil else {
                throw DomainError("no active user \(userId)", code: .notFound)
            }
            try await executor.query(
                "INSERT INTO console_invitations (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                [
                    .blob(Self.hash(token)), .text(userId), .integer(now.millis),
                    .integer(now.addingTimeInterval(Self.invitationLifetime).millis),
                ])
            try await AuditLog.record(
                on: executor, at: now, actor: actor, entity: "merchant_user", id: userId, action: "invited",
                detail: "invitation valid for \(Int(Self.invitationLifetime / 3_600)) h")
        }
        return token
    }

    /// The user an invitation is for, while it can still be used; nil otherwise.
    public func invitedUser(token: String, now: Date = Date()) async throws -> ConsoleUser? {
        let rows = try await database.query(
            """
            SELECT user_id FROM console_invitations
            WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
            """, [.blob(Self.hash(token)), .integer(now.millis)])
        guard let userId = try rows.first?.text("user_id") else { return nil }
        return try await Self.user(id: userId, on: database).flatMap { $0.deactivatedAt == nil ? $0 : nil }
    }

    /// Sets the password of the invitation's user and uses the invitation up.
    /// - Throws: ``DomainError`` for a password under ``minimumPasswordLength`` characters, or an invitation that is
    ///   unknown, used or expired (``DomainError/Code/notFound``).
    public func acceptInvitation(token: String, password: String, now: Date = Date()) async throws -> ConsoleUser {
        try Self.checkPassword(password)
        let hash = Bcrypt.hash(password, cost: bcryptCost)
        return try await database.transaction { executor in
            let rows = try await executor.query(
                """
                SELECT user_id FROM console_invitations
                WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2\(executor.dialect.forUpdate)
                """, [.blob(Self.hash(token)), .integer(now.millis)])
            guard let userId = try rows.first?.text("user_id"),
                let user = try await Self.user(id: userId, on: executor), user.deactivatedAt == nil
            else { throw DomainError("the invitation is unknown, used or expired", code: .notFound) }
            try await executor.query(
                "UPDATE console_invitations SET used_at = $1 WHERE token_hash = $2",
                [.integer(now.millis), .blob(Self.hash(token))])
            try await executor.query(
                "UPDATE merchant_users SET password_hash = $1 WHERE id = $2", [.text(hash), .text(userId)])
            // A new password ends the sessions the old one opened.
            try await executor.query("DELETE FROM console_sessions WHERE user_id = $1", [.text(userId)])
            try await AuditLog.record(
                on: executor, at: now, actor: userId, entity: "merchant_user", id: userId, action: "passwordSet",
                detail: "through an invitation")
            return user
        }
    }

    // MARK: - Signing in

    /// Why a sign-in was refused. The same answer for an unknown email and a wrong password.
    public enum SignInFailure: Error, Sendable, Hashable {
        /// The email and password do not match an active user.
        case invalidCredentials
        /// Too many failures for this account or address: try again after `retryAfter`.
        case throttled(retryAfter: Date)
    }

    /// Checks `email` and `password`, counting attempts per account and per address: each attempt is counted
    /// before its password is checked (one atomic upsert per subject), so a burst of parallel guesses gets no more
    /// than ``maximumFailures``; a success takes its attempt back.
    public func signIn(email: String, password: String, address: String, now: Date = Date()) async throws
        -> Result<ConsoleUser, SignInFailure>
    {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        let subjects = ["email:\(email)", "address:\(address)"]
        var throttledUntil: Date?
        for subject in subjects {
            let (failures, started) = try await countAttempt(subject, now: now)
            if failures > Self.maximumFailures {
                let end = started.addingTimeInterval(Self.throttleWindow)
                throttledUntil = max(throttledUntil ?? end, end)
            }
        }
        if let throttledUntil { return .failure(.throttled(retryAfter: throttledUntil)) }
        let rows = try await database.query(
            """
            SELECT * FROM merchant_users
            WHERE email = $1 AND password_hash IS NOT NULL AND deactivated_at IS NULL ORDER BY created_at, id
            """, [.text(email)])
        for row in rows {
            guard let hash = try row.optionalText("password_hash") else { continue }
            if Bcrypt.verify(password, hash: hash) {
                try await database.transaction { executor in
                    try await executor.query(
                        "DELETE FROM console_login_failures WHERE subject = $1", [.text(subjects[0])])
                    try await executor.query(
                        "UPDATE console_login_failures SET failures = failures - 1 WHERE subject = $1 AND failures > 0",
                        [.text(subjects[1])])
                }
                return .success(try Self.decode(row))
            }
        }
        if rows.isEmpty {
            // As slow as a wrong password, so timing does not tell which emails have accounts.
            _ = Bcrypt.verify(password, hash: Self.decoyHash(cost: bcryptCost))
        }
        return .failure(.invalidCredentials)
    }

    /// Counts an attempt for `subject` in its window (a new window when the last one ended); the count and the
    /// window's start.
    private func countAttempt(_ subject: String, now: Date) async throws -> (Int, Date) {
        let windowStart = now.addingTimeInterval(-Self.throttleWindow).millis
        let rows = try await database.query(
            """
            INSERT INTO console_login_failures (subject, window_started_at, failures) VALUES ($1, $2, 1)
            ON CONFLICT (subject) DO UPDATE SET
                failures = CASE WHEN console_login_failures.window_started_at > $3
                    THEN console_login_failures.failures + 1 ELSE 1 END,
                window_started_at = CASE WHEN console_login_failures.window_started_at > $3
                    THEN console_login_failures.window_started_at ELSE $2 END
            RETURNING failures, window_started_at
            """, [.text(subject), .integer(now.millis), .integer(windowStart)])
        guard let row = rows.first else { return (1, now) }
        return (try row.integer("failures"), Date(millis: try row.integer("window_started_at")))
    }

    // MARK: - Sessions

    /// A new session for `user`: the cookie's token (returned this once, stored hashed) and the session.
    public func openSession(for user: ConsoleUser, address: String, userAgent: String, now: Date = Date())
        async throws -> (token: String, session: ConsoleSession)
    {
        let token = Self.randomToken()
        let session = ConsoleSession(
            user: user, csrfToken: Self.randomToken(), createdAt: now,
            expiresAt: now.addingTimeInterval(Self.absoluteTimeout))
        try await database.transaction { executor in
            try await executor.query(
                """
                INSERT INTO console_sessions (id_hash, user_id, merchant_id, csrf_token, created_at, last_seen_at,
                    expires_at, address, user_agent)
                VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8)
                """,
                [
                    .blob(Self.hash(token)), .text(user.id), .text(user.merchantId), .text(session.csrfToken),
                    .integer(now.millis), .integer(session.expiresAt.millis), .text(address),
                    .text(String(userAgent.prefix(200))),
                ])
            try await AuditLog.record(
                on: executor,
                AuditLog.Entry(
                    at: now, actor: user.id, entity: "merchant_user", entityId: user.id, action: "signedIn",
                    detail: "session opened", address: address))
        }
        return (token, session)
    }

    /// The session of a cookie token, its idle timer restarted; nil when unknown, idle too long, past its absolute
    /// end, or its user deactivated.
    public func session(token: String, now: Date = Date()) async throws -> ConsoleSession? {
        let rows = try await database.query(
            """
            SELECT u.*, s.csrf_token, s.created_at AS session_created_at, s.last_seen_at, s.expires_at
            FROM console_sessions s JOIN merchant_users u ON u.id = s.user_id WHERE s.id_hash = $1
            """, [.blob(Self.hash(token))])
        guard let row = rows.first else { return nil }
        let user = try Self.decode(row)
        let lastSeen = Date(millis: try row.integer("last_seen_at"))
        let expiresAt = Date(millis: try row.integer("expires_at"))
        guard user.deactivatedAt == nil, expiresAt > now, lastSeen.addingTimeInterval(idleTimeout) > now else {
            try await database.query("DELETE FROM console_sessions WHERE id_hash = $1", [.blob(Self.hash(token))])
            return nil
        }
        // Written at most once a minute (sooner for a short idle timeout): a page's assets do not each cost a write.
        if now.timeIntervalSince(lastSeen) > min(60, idleTimeout / 10) {
            try await database.query(
                "UPDATE console_sessions SET last_seen_at = $1 WHERE id_hash = $2",
                [.integer(now.millis), .blob(Self.hash(token))])
        }
        return ConsoleSession(
            user: user, csrfToken: try row.text("csrf_token"),
            createdAt: Date(millis: try row.integer("session_created_at")),
            expiresAt: expiresAt)
    }

    /// Ends one session.
    public func closeSession(token: String, user: ConsoleUser, now: Date = Date()) async throws {
        try await database.transaction { executor in
            try await executor.query("DELETE FROM console_sessions WHERE id_hash = $1", [.blob(Self.hash(token))])
            try await AuditLog.record(
                on: executor, at: now, actor: user.id, entity: "merchant_user", id: user.id, action: "signedOut",
                detail: "this session")
        }
    }

    /// Ends every session of `user` (sign out everywhere).
    public func closeAllSessions(of user: ConsoleUser, now: Date = Date()) async throws {
        try await database.transaction { executor in
            try await executor.query("DELETE FROM console_sessions WHERE user_id = $1", [.text(user.id)])
            try await AuditLog.record(
                on: executor, at: now, actor: user.id, entity: "merchant_user", id: user.id, action: "signedOut",
                detail: "every session")
        }
    }

    // MARK: - Team

    /// The merchant's users with whether they can sign in.
    public func team(merchantId: String) async throws -> [ConsoleUser] {
        try await database.query(
            "SELECT * FROM merchant_users WHERE merchant_id = $1 ORDER BY created_at, id", [.text(merchantId)]
        ).map(Self.decode)
    }

    /// Deactivates a user of the admin's merchant: their sessions end and they cannot sign in.
    /// - Throws: ``DomainError`` for an unknown user, or the admin's own account.
    public func deactivate(userId: String, by admin: ConsoleUser, now: Date = Date()) async throws {
        guard userId != admin.id else { throw DomainError("you cannot deactivate your own account") }
        try await database.transaction { executor in
            guard let user = try await Self.user(id: userId, on: executor), user.merchantId == admin.merchantId
            else { throw DomainError("no such user", code: .notFound) }
            try await executor.query(
                "UPDATE merchant_users SET deactivated_at = $1 WHERE id = $2", [.integer(now.millis), .text(userId)])
            try await executor.query("DELETE FROM console_sessions WHERE user_id = $1", [.text(userId)])
            try await AuditLog.record(
                on: executor, at: now, actor: admin.id, entity: "merchant_user", id: userId, action: "deactivated",
                detail: user.email)
        }
    }

    // MARK: - Support

    static func user(id: String, on executor: any SQLExecutor) async throws -> ConsoleUser? {
        try await executor.query("SELECT * FROM merchant_users WHERE id = $1", [.text(id)]).first.map(decode)
    }

    static func decode(_ row: SQLRow) throws -> ConsoleUser {
        guard let role = MerchantUser.Role(rawValue: try row.text("role")) else {
            throw StorageError(.corruptRow, "a merchant user's role is neither admin nor staff")
        }
        return ConsoleUser(
            id: try row.text("id"), merchantId: try row.text("merchant_id"), email: try row.text("email"), role: role,
            hasPassword: try row.optionalText("password_hash") != nil,
            deactivatedAt: try row.optionalInteger("deactivated_at").map(Date.init(millis:)))
    }

    static func checkPassword(_ password: String) throws(DomainError) {
        guard password.count >= minimumPasswordLength, password.utf8.count <= 72 else {
            throw DomainError("a password has \(minimumPasswordLength) to 72 characters")
        }
    }

    /// 32 random bytes, base64url without padding.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func hash(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Data(token.utf8))) }

    /// A bcrypt hash of no one's password at `cost`, verified against when the email is unknown (made once a cost).
    private static func decoyHash(cost: UInt8) -> String {
        decoyLock.withLock {
            if let hash = decoys[cost] { return hash }
            let hash = Bcrypt.hash(randomToken(), cost: cost)
            decoys[cost] = hash
            return hash
        }
    }
    private static let decoyLock = NSLock()
    nonisolated(unsafe) private static var decoys: [UInt8: String] = [:]
}

/// A merchant user as the console sees them.
public struct ConsoleUser: Sendable, Hashable {
    public var id: String
    public var merchantId: String
    public var email: String
    public var role: MerchantUser.Role
    /// Whether they have set a password.
    public var hasPassword: Bool
    /// When an admin deactivated them.
    public var deactivatedAt: Date?

    public var isAdmin: Bool { role == .admin }
}

/// A signed-in browser.
public struct ConsoleSession: Sendable, Hashable {
    public var user: ConsoleUser
    /// The token every form of this session carries.
    public var csrfToken: String
    public var createdAt: Date
    public var expiresAt: Date
}
