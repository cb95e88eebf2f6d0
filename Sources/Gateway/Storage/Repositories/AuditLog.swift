import Foundation

/// The audit log: one row per state change, written in the transaction that makes the change. Details never hold
/// secrets or card data.
enum AuditLog {
    static func record(
        on executor: any SQLExecutor, at date: Date, actor: String, entity: String, id: String, action: String,
        detail: String
    ) async throws(StorageError) {
        try await executor.query(
            "INSERT INTO audit_log (at, actor, entity, entity_id, action, detail) VALUES ($1, $2, $3, $4, $5, $6)",
            [.integer(date.millis), .text(actor), .text(entity), .text(id), .text(action), .text(detail)])
    }
}
