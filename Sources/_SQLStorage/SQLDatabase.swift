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

    /// Runs `body` in one transaction like ``transaction(_:)``, but may return before it is on disk — on SQLite,
    /// before its group of transactions is even committed, its writes visible to every later transaction. Only for
    /// writes nothing outside the process relies on until a later ``transaction(_:)`` has returned, which makes
    /// them durable too (commits reach the disk in commit order; should they never be committed, SQLite refuses
    /// all later work); whoever shows what it read to the outside first calls ``waitUntilDurable()``. PostgreSQL
    /// waits as always.
    func transactionDurableLater<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result

    /// Returns once everything written so far is on disk (at once on PostgreSQL, whose commits always wait).
    func waitUntilDurable() async throws
}

extension SQLDatabase {
    /// A plain ``transaction(_:)``: its commit is on disk when it returns.
    public func transactionDurableLater<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result {
        try await transaction(body)
    }

    /// Nothing to wait for: every commit of this database is on disk when it returns.
    public func waitUntilDurable() async throws {}
}
