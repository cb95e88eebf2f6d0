public import Foundation
public import _SQLStorage

/// The audit log of every state change (table `audit_log`): who did what to which entity, when.
///
/// Every repository records its changes here, on the executor of the transaction that makes them, so a change and
/// its record commit together. `detail` is for humans and must never hold secrets, keys, tokens or card data:
/// write ids, roles, counts and times.
public enum AuditLog {
    /// One row.
    public struct Entry: Sendable, Hashable, Codable {
        /// When.
        public var at: Date
        /// Who: `key:key_…`, `user:usr_…`, `device:…`, `cli` or `system`.
        public var actor: String
        /// The kind of entity: `merchant`, `merchant_user`, `api_key`, `device`, `payment`, …
        public var entity: String
        /// Its id.
        public var entityId: String
        /// What happened, e.g. `created`, `termsAccepted`.
        public var action: String
        /// Free text without secrets.
        public var detail: String
        /// The client's address: the request's (``AuditLog/clientAddress``) for a change made by a request, nil for
        /// the gateway's own (reversals, webhook deliveries) and the command line's.
        public var address: String?

        /// Creates an entry.
        public init(
            at: Date, actor: String, entity: String, entityId: String, action: String, detail: String = "",
            address: String? = nil
        ) {
            self.at = at
            self.actor = actor
            self.entity = entity
            self.entityId = entityId
            self.action = action
            self.detail = detail
            self.address = address
        }
    }

    /// The address of the client whose request is being served: the API's ``Authenticator`` and the console set it,
    /// so every change a request makes records where it came from without each repository being told.
    @TaskLocal public static var clientAddress: String?

    /// Records `entry` on `executor` (use the transaction's executor); without an address, the request's.
    public static func record(on executor: any SQLExecutor, _ entry: Entry) async throws(StorageError) {
        try await executor.query(
            """
            INSERT INTO audit_log (at, actor, entity, entity_id, action, detail, address)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .integer(entry.at.millis), .text(entry.actor), .text(entry.entity), .text(entry.entityId),
                .text(entry.action), .text(entry.detail), .text(entry.address ?? clientAddress),
            ])
    }

    /// Records a change on `executor` (use the transaction's executor).
    public static func record(
        on executor: any SQLExecutor, at date: Date, actor: String, entity: String, id: String, action: String,
        detail: String = ""
    ) async throws(StorageError) {
        try await record(
            on: executor, Entry(at: date, actor: actor, entity: entity, entityId: id, action: action, detail: detail))
    }

    /// The entries, oldest first; of one entity kind and id when given.
    public static func entries(
        on executor: any SQLExecutor, entity: String? = nil, entityId: String? = nil
    ) async throws(StorageError) -> [Entry] {
        // Only the conditions asked for, so that (entity, entity_id) finds one entity's rows by its index.
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let entity {
            binds.append(.text(entity))
            conditions.append("entity = $\(binds.count)")
        }
        if let entityId {
            binds.append(.text(entityId))
            conditions.append("entity_id = $\(binds.count)")
        }
        let rows = try await executor.query(
            "SELECT at, actor, entity, entity_id, action, detail, address FROM audit_log"
                + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " ORDER BY id",
            binds)
        var entries: [Entry] = []
        for row in rows {
            entries.append(
                Entry(
                    at: Date(millis: try row.integer("at")), actor: try row.text("actor"),
                    entity: try row.text("entity"),
                    entityId: try row.text("entity_id"), action: try row.text("action"), detail: try row.text("detail"),
                    address: try row.optionalText("address"))
            )
        }
        return entries
    }
}
