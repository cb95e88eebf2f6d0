/// Runs statements: a database outside a transaction (each statement commits alone) or one transaction.
public protocol SQLExecutor: Sendable {
    /// The database's dialect, for the few statements that differ.
    var dialect: SQLDialect { get }

    /// Runs one statement with `$1, $2 …` placeholders bound to `binds`, and returns its rows (those of a
    /// `RETURNING` clause for writes).
    /// - Throws: ``StorageError`` (``StorageError/Code/uniqueViolation`` for a duplicate key).
    @discardableResult
    func query(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow]

    /// Runs `insert`, an `INSERT … ON CONFLICT DO NOTHING`, as a statement of the caller's transaction, and tells
    /// whether it inserted its row; `column` is one of the row's (for a `RETURNING` clause). The default asks the
    /// database with a statement; an executor that can ask its connection directly does.
    func inserted(_ insert: String, _ binds: [SQLValue], returning column: String) async throws(StorageError) -> Bool
}

extension SQLExecutor {
    /// Runs one statement without binds.
    @discardableResult
    public func query(_ sql: String) async throws(StorageError) -> [SQLRow] { try await query(sql, []) }
}

extension SQLExecutor {
    /// Runs `insert`, an `INSERT … ON CONFLICT DO NOTHING`, as a statement of the caller's transaction, and tells
    /// whether it inserted its row. PostgreSQL says so with `RETURNING`; SQLite counts with `changes()` instead, as
    /// its `RETURNING` builds and drops a temporary table per statement, and inside a transaction no other statement
    /// runs in between.
    public func inserted(
        _ insert: String, _ binds: [SQLValue], returning column: String
    ) async throws(StorageError) -> Bool {
        switch dialect {
        case .sqlite:
            try await query(insert, binds)
            return try await query("SELECT changes() AS changed").first?.integer("changed") == 1
        case .postgres:
            return try await !query(insert + " RETURNING " + column, binds).isEmpty
        }
    }
}
