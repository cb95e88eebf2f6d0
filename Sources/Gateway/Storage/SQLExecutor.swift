/// Runs statements: a database outside a transaction (each statement commits alone) or one transaction.
public protocol SQLExecutor: Sendable {
    /// The database's dialect, for the few statements that differ.
    var dialect: SQLDialect { get }

    /// Runs one statement with `$1, $2 …` placeholders bound to `binds`, and returns its rows (those of a
    /// `RETURNING` clause for writes).
    /// - Throws: ``StorageError`` (``StorageError/Code/uniqueViolation`` for a duplicate key).
    @discardableResult
    func query(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow]
}

extension SQLExecutor {
    /// Runs one statement without binds.
    @discardableResult
    public func query(_ sql: String) async throws(StorageError) -> [SQLRow] { try await query(sql, []) }
}
