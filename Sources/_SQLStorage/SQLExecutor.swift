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
    /// whether it inserted its row; `column` is one of the row's. The default asks with `RETURNING column`; SQLite's
    /// transaction executor asks its connection instead (SQLite's `RETURNING` builds and drops a temporary table per
    /// statement).
    func inserted(_ insert: String, _ binds: [SQLValue], returning column: String) async throws(StorageError) -> Bool
}

extension SQLExecutor {
    /// Runs one statement without binds.
    @discardableResult
    public func query(_ sql: String) async throws(StorageError) -> [SQLRow] { try await query(sql, []) }
}

extension SQLExecutor {
    /// ``inserted(_:_:returning:)`` with `RETURNING`: a row back means one was inserted.
    public func inserted(
        _ insert: String, _ binds: [SQLValue], returning column: String
    ) async throws(StorageError) -> Bool {
        try await !query(insert + " RETURNING " + column, binds).isEmpty
    }
}
