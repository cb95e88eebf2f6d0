public import Foundation
public import _SQLStorage

/// Merchants' API keys, stored as the SHA-256 of their secrets, in SQL over any ``SQLDatabase``.
public struct APIKeyRepository: Sendable {
    private let database: any SQLDatabase

    /// Creates the repository.
    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Creates a key for `merchantId`; the secret is returned here only and never stored.
    /// - Throws: ``DomainError/Code/notFound`` for an unknown merchant; ``StorageError``.
    public func create(
        merchantId: String, name: String? = nil, actor: String, now: Date = Date()
    ) async throws -> (APIKey, APIKey.Secret) {
        let key = APIKey(id: EntityID.make("key"), merchantId: merchantId, createdAt: now, name: name)
        let secret = APIKey.Secret.generate()
        try await database.transaction { executor in
            guard try await MerchantRepository.merchant(id: merchantId, on: executor, lock: false) != nil else {
                throw DomainError("no merchant \(merchantId)", code: .notFound)
            }
            try await executor.query(
                "INSERT INTO api_keys (id, merchant_id, secret_hash, created_at, name) VALUES ($1, $2, $3, $4, $5)",
                [.text(key.id), .text(merchantId), .blob(secret.hash), .integer(now.millis), .text(name)])
            try await AuditLog.record(
                on: executor, at: now, actor: actor, entity: "api_key", id: key.id, action: "created",
                detail: "merchant \(merchantId)")
        }
        return (key, secret)
    }

    /// The valid (unrevoked) key whose secret is `secret`, or nil.
    public func key(for secret: APIKey.Secret) async throws -> APIKey? {
        try await database.query(
            "SELECT * FROM api_keys WHERE secret_hash = $1 AND revoked_at IS NULL", [.blob(secret.hash)]
        ).first.map(Self.decode)
    }

    /// The keys of `merchantId`, revoked ones included, oldest first.
    public func keys(merchantId: String) async throws -> [APIKey] {
        try await database.query(
            "SELECT * FROM api_keys WHERE merchant_id = $1 ORDER BY created_at, id", [.text(merchantId)]
        ).map(Self.decode)
    }

    /// Revokes key `id` of `merchantId`; returns whether a valid key was revoked.
    public func revoke(id: String, merchantId: String, actor: String, now: Date = Date()) async throws -> Bool {
        try await database.transaction { executor in
            let rows = try await executor.query(
                "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND merchant_id = $3 AND revoked_at IS NULL RETURNING id",
                [.integer(now.millis), .text(id), .text(merchantId)])
            guard !rows.isEmpty else { return false }
            try await AuditLog.record(
                on: executor, at: now, actor: actor, entity: "api_key", id: id, action: "revoked",
                detail: "merchant \(merchantId)")
            return true
        }
    }

    /// Records that key `id` authenticated a request at `now`.
    public func recordUse(id: String, now: Date) async throws {
        try await database.query(
            "UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [.integer(now.millis), .text(id)])
    }

    private static func decode(_ row: SQLRow) throws -> APIKey {
        APIKey(
            id: try row.text("id"), merchantId: try row.text("merchant_id"),
            createdAt: Date(millis: try row.integer("created_at")),
            revokedAt: try row.optionalInteger("revoked_at").map(Date.init(millis:)),
            name: try row.optionalText("name"),
            lastUsedAt: try row.optionalInteger("last_used_at").map(Date.init(millis:)))
    }
}
