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
    func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result
}
