import EMV
public import Foundation
public import _SQLStorage

/// A merchant's users, in SQL over any ``SQLDatabase``.
public struct MerchantUserRepository: Sendable {
    private let database: any SQLDatabase

    /// Creates the repository.
    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Adds a user to `merchantId`.
    /// - Throws: ``DomainError`` for a bad email, an unknown merchant (``DomainError/Code/notFound``) or an email the
    ///   merchant already has; ``StorageError``.
    public func add(
        merchantId: String, email: String, role: MerchantUser.Role, actor: String, now: Date = Date()
    ) async throws -> MerchantUser {
        let user = MerchantUser(
            id: EntityID.make("usr"), merchantId: merchantId, email: try MerchantUser.normalizedEmail(email),
            role: role, createdAt: now)
        do {
            try await database.transaction { executor in
                guard try await MerchantRepository.merchant(id: merchantId, on: executor, lock: false) != nil else {
                    throw DomainError("no merchant \(merchantId)", code: .notFound)
                }
                try await executor.query(
                    "INSERT INTO merchant_users (id, merchant_id, email, role, created_at) VALUES ($1, $2, $3, $4, $5)",
                    [.text(user.id), .text(merchantId), .text(user.email), .text(role.rawValue), .integer(now.millis)])
                try await AuditLog.record(
                    on: executor, at: now, actor: actor, entity: "merchant_user", id: user.id, action: "created",
                    detail: "merchant \(merchantId), role \(role.rawValue)")
            }
        } catch StorageError.uniqueViolation {
            throw DomainError("the merchant already has a user with this email address")
        }
        return user
    }

    /// The user `id` of `merchantId`, or nil (also for another merchant's user).
    public func user(id: String, merchantId: String) async throws -> MerchantUser? {
        try await database.query(
            "SELECT * FROM merchant_users WHERE id = $1 AND merchant_id = $2", [.text(id), .text(merchantId)]
        ).first.map(Self.decode)
    }

    /// The users of `merchantId`, oldest first.
    public func users(merchantId: String) async throws -> [MerchantUser] {
        try await database.query(
            "SELECT * FROM merchant_users WHERE merchant_id = $1 ORDER BY created_at, id", [.text(merchantId)]
        ).map(Self.decode)
    }

    private static func decode(_ row: SQLRow) throws -> MerchantUser {
        guard let role = MerchantUser.Role(rawValue: try row.text("role")) else {
            throw StorageError(.corruptRow, "a merchant user's role is neither admin nor staff")
        }
        return MerchantUser(
            id: try row.text("id"), merchantId: try row.text("merchant_id"), email: try row.text("email"), role: role,
            createdAt: Date(millis: try row.integer("created_at")))
    }
}
