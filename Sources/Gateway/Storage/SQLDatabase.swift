public import ServiceLifecycle

/// A database the gateway stores in: SQLite (``SQLiteStorage``) or PostgreSQL (``PostgresStorage``).
///
/// Repositories are written once, in SQL over this protocol. The database is a `Service`: run it in the service
/// group before anything that uses it (it is shut down last); SQLite's `run()` only waits and closes its file at the
/// end, PostgreSQL's runs the connection pool.
public protocol SQLDatabase: SQLExecutor, Service {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws. Concurrent
    /// transactions that touch the same rows are serialised (SQLite: one writer; PostgreSQL: row locks from
    /// `SELECT … FOR UPDATE`, see ``SQLDialect/forUpdate``).
    ///
    /// A statement that fails inside the transaction fails all of it, even when `body` catches its error (PostgreSQL
    /// aborts a transaction at its first failed statement; SQLite is held to the same rule): use
    /// `INSERT … ON CONFLICT DO NOTHING` rather than catching ``StorageError/Code/uniqueViolation`` there.
    /// PostgreSQL runs `body` again after a deadlock or serialization conflict (see ``PostgresStorage``), so `body`
    /// does database work only, through the executor it gets.
    func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result
}
