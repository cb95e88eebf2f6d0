import Logging
import ServiceLifecycle

/// The embedded database: one SQLite file (WAL journal; a commit is on disk before it is acknowledged), or an
/// in-memory database for tests.
///
/// SQLite allows one writer at a time, so every statement and transaction goes through one connection behind a
/// first-come lock. Concurrent transactions share commits (``SQLiteCommitGroup``): each runs in its own `SAVEPOINT`
/// inside one `BEGIN IMMEDIATE … COMMIT`, and none that waits for the disk returns before that commit is on disk; a
/// group commits once no one waits for the lock, except that while a sync of the WAL is under way it stays open for
/// every transaction until the sync ends (their commit could not reach the disk sooner), so under load a sync
/// period's transactions write their shared pages to the WAL once. A lone transaction commits at once. A statement
/// run outside a transaction joins the group the same way. The commit itself does not
/// wait for the disk (`synchronous=NORMAL`): ``SQLiteWALSync`` syncs the WAL after the lock is given up, and each
/// member returns once that sync covers its commit — as durable as `synchronous=FULL`, without holding the
/// connection for the fsync. Everything under the lock runs on one thread of its own (``SQLiteThread``), so the lock
/// passes from member to member without waiting behind the rest of the process's tasks. Statement journals stay in
/// memory (`temp_store=MEMORY`): each member's savepoint journals the pages it changes, and on disk that was a
/// `pwrite` per page. Inside ``transaction(_:)`` use only the executor it passes: calling the storage itself there
/// would wait for the lock the transaction holds. The page cache holds 8 MiB. The WAL is checkpointed every 1,000
/// pages, as SQLite would, but by a connection of its own beside the writer (``SQLiteCheckpointer``): in the commit,
/// each checkpoint stalled the lock, and moving it to 10,000 pages gained the closed loop a few percent but raised
/// the open loop's p99 from 12–15 ms to 19–23 ms.
public final class SQLiteStorage: SQLDatabase {
    /// Always ``SQLDialect/sqlite``.
    public let dialect = SQLDialect.sqlite
    private let handle: SQLiteHandle
    private let group: SQLiteCommitGroup
    private let walSync: SQLiteWALSync

    private init(handle: SQLiteHandle, inMemory: Bool) {
        self.handle = handle
        // An in-memory database has nothing to sync.
        let sync: (@Sendable () throws -> Void)?
        if inMemory {
            sync = nil
        } else {
            sync = { () throws -> Void in try handle.syncWAL() }
        }
        let group = SQLiteCommitGroup()
        self.group = group
        walSync = SQLiteWALSync(sync: sync) { syncing in
            if syncing { group.syncStarted() } else { group.syncFinished() }
        }
        group.onCommitOwed { [weak self] in
            guard let self else { return }
            Task { await self.commitParkedGroup() }
        }
    }

    /// Opens (creating if needed) the database file at `path`, or an in-memory database when `path` is nil.
    /// - Throws: ``StorageError/Code/connectionFailed``.
    public static func open(path: String?, logger: Logger = Logger(label: "contactless.sqlite"))
        async throws(StorageError) -> SQLiteStorage
    {
        if let path { try SQLiteFiles.makePrivate(databasePath: path) }
        let handle: SQLiteHandle
        do {
            handle = try SQLiteHandle(path: path)
        } catch {
            throw StorageError(.connectionFailed, "cannot open the SQLite database: SQLite error \(error.code)")
        }
        let storage = SQLiteStorage(handle: handle, inMemory: path == nil)
        // NORMAL: the commit does not fsync; SQLiteWALSync does, before anyone is told it committed.
        // 1 KiB pages (for a new file; an existing one keeps its size): a payment dirties about a dozen pages
        // (rows appended to tables and indexes), and each is a WAL frame written at commit and copied again at
        // checkpoint, so a page a quarter the size cuts most of that I/O: ~10% less CPU per authorization in
        // paired `tap bench gateway` runs. The cache (in KiB) then holds 8,192 pages, as many as before: each
        // commit scans the page cache's hash, so more pages cost every commit.
        for pragma in [
            "PRAGMA page_size=1024", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
            "PRAGMA temp_store=MEMORY",
            "PRAGMA cache_size=-8192",
        ] {
            try storage.execute(pragma, [])
        }
        if let path {
            do {
                handle.checkpoint(with: try SQLiteCheckpointer(path: path))
            } catch {
                throw StorageError(.connectionFailed, "cannot open the SQLite database: SQLite error \(error.code)")
            }
        }
        return storage
    }

    /// Runs one statement on the connection, outside any transaction.
    public func query(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
        do {
            return try await grouped { _ async throws -> Result<[SQLRow], any Error> in
                do {
                    return .success(try self.execute(sql, binds))
                } catch let error as StorageError where self.handle.isInTransaction {
                    // A failed statement undoes only itself (a constraint, say): the group's transaction goes on,
                    // and with it the writes of members that returned before its commit.
                    return .failure(error)
                }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(.queryFailed, "a statement failed")
        }
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE` on the one connection; other work waits its turn):
    /// committed when it returns, rolled back when it throws.
    public func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result {
        try await transaction(awaitingDisk: true, body)
    }

    /// Runs `body` in one transaction and returns once it is committed, not waiting for the disk (see
    /// ``SQLDatabase/transactionDurableLater(_:)``).
    public func transactionDurableLater<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result {
        try await transaction(awaitingDisk: false, body)
    }

    /// Returns once everything written so far is on disk. Writes not yet committed (of transactions that returned
    /// before their group's commit) sit in the open group: an empty member joins it and waits for its commit and
    /// sync. With no group open everything written is committed, and only the sync is waited for (an empty commit
    /// would cost a sync of its own).
    public func waitUntilDurable() async throws {
        guard group.isOpen else { return try await walSync.waitUntilAllDurable() }
        try await grouped { _ async throws -> Swift.Result<Void, any Error> in .success(()) }
    }

    private func transaction<Result: Sendable>(
        awaitingDisk: Bool, _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result {
        try await grouped(awaitingDisk: awaitingDisk) { first async throws -> Swift.Result<Result, any Error> in
            let executor = Executor(storage: self)
            // The group's first member needs no savepoint: if it fails, rolling the group back undoes it alone. A
            // later member's savepoint is released when it succeeds: SQLite checks every open savepoint for each
            // page a statement first changes, and a group can have hundreds of members.
            if !first { try self.execute("SAVEPOINT member", []) }
            do {
                let result = try await body(executor)
                try executor.failure.check()
                if !first { try self.execute("RELEASE member", []) }
                return .success(result)
            } catch {
                guard !first else { throw error }
                // Undo this member only; if even that fails, the throw rolls the whole group back.
                try self.execute("ROLLBACK TO member", [])
                return .failure(error)
            }
        }
    }

    /// Runs `member` under the lock inside the commit group's transaction and returns its outcome once the group is
    /// committed. `member` (told whether it began the group) returns its own failure when it left the transaction
    /// intact (undone to its savepoint); when it throws, the whole group is rolled back and fails with that error
    /// (for the first member that is just its own rollback). Everything under the lock runs on ``SQLiteThread``;
    /// the wait for the disk does not. Unless `awaitingDisk`, a member whose group does not commit at once returns
    /// without waiting for the commit (see ``SQLiteCommitGroup``).
    private func grouped<Value: Sendable>(
        awaitingDisk: Bool = true, _ member: @Sendable (_ first: Bool) async throws -> Swift.Result<Value, any Error>
    ) async throws -> Value {
        let (outcome, committed) = await withTaskExecutorPreference(SQLiteThread.shared) {
            await self.runInGroup(awaitingCommit: awaitingDisk, member)
        }
        // On disk before anyone hears of it; the lock is free meanwhile.
        do {
            let sequence = try committed.get()
            if awaitingDisk { try await walSync.waitUntilDurable(sequence) }
        } catch {
            if case .failure(let own) = outcome { throw own }
            throw error
        }
        return try outcome.get()
    }

    /// ``grouped(awaitingDisk:_:)`` up to the commit: `member`'s outcome, and the group's commit (its sequence
    /// number) or the error it failed with; without `awaitingCommit`, a group left open gives sequence 0.
    private func runInGroup<Value: Sendable>(
        awaitingCommit: Bool, _ member: @Sendable (_ first: Bool) async throws -> Swift.Result<Value, any Error>
    ) async -> (outcome: Swift.Result<Value, any Error>, committed: Swift.Result<UInt64, any Error>) {
        await group.acquire()
        if let failure = group.failure {
            group.release()
            return (.failure(failure), .failure(failure))
        }
        let first = !group.isOpen
        if first {
            do {
                try execute("BEGIN IMMEDIATE", [])
            } catch {
                group.release()
                return (.failure(error), .failure(error))
            }
            group.opened()
        }
        let outcome: Swift.Result<Value, any Error>
        do {
            outcome = try await member(first)
        } catch {
            await endGroup(commit: false, failure: error)
            return (.failure(error), .failure(error))
        }
        if group.memberFinished() {
            return (outcome, await endGroup(commit: true, failure: nil))
        }
        if !awaitingCommit {
            group.handOverReturning(withWrites: (try? outcome.get()) != nil)
            return (outcome, .success(0))
        }
        do {
            return (outcome, .success(try await group.handOverAndAwaitCommit()))
        } catch {
            return (outcome, .failure(error))
        }
    }

    /// Commits (or, with `commit` false, rolls back) the group's transaction, tells its waiting members, and gives
    /// up the lock; returns the commit's sequence number for ``SQLiteWALSync``, or the error the group failed with.
    @discardableResult
    private func endGroup(commit: Bool, failure: (any Error)?) async -> Swift.Result<UInt64, any Error> {
        let outcome: Swift.Result<UInt64, any Error>
        if let failure {
            outcome = .failure(failure)
        } else {
            do {
                try self.commit()
                outcome = .success(await walSync.didCommit())
            } catch {
                outcome = .failure(error)
            }
        }
        if case .failure = outcome { _ = try? execute("ROLLBACK", []) }
        group.closed(outcome)
        group.release()
        return outcome
    }

    /// Commits the group parked while a sync ran, if no member has committed it meanwhile, and starts the sync
    /// that makes it durable (``SQLiteCommitGroup/onCommitOwed(_:)``).
    private func commitParkedGroup() async {
        let committed: UInt64? = await withTaskExecutorPreference(SQLiteThread.shared) {
            await group.acquire()
            guard group.isOpen else {
                group.release()
                return nil
            }
            return try? await endGroup(commit: true, failure: nil).get()
        }
        guard let committed else { return group.syncFinished() }
        do {
            try await walSync.waitUntilDurable(committed)
        } catch {
            // The syncer failed before it began (an earlier sync failed): no sync will say it ended.
            group.syncFinished()
        }
    }

    /// Waits until the service group shuts down (or the task is cancelled), then closes the file.
    public func run() async throws {
        try? await gracefulShutdown()
        await group.acquire()
        if group.isOpen {
            // A group's member handed the lock to us: its members wait for this commit.
            do {
                try commit()
                group.closed(.success(await walSync.didCommit()))
            } catch {
                _ = try? execute("ROLLBACK", [])
                group.closed(.failure(error))
            }
        }
        // No sync may run on a closed connection: finish them (and let their waiters go) first.
        try? await walSync.waitUntilAllDurable()
        handle.close()
        group.release()
    }

    /// Runs one statement on the connection, in place, without the lock (callers hold it).
    @discardableResult
    fileprivate func execute(_ sql: String, _ binds: [SQLValue]) throws(StorageError) -> [SQLRow] {
        do {
            return try handle.run(sql, binds)
        } catch  where error.isUniqueViolation {
            throw StorageError(.uniqueViolation, "a unique key is taken: SQLite error \(error.code)")
        } catch {
            // The code, never SQLite's message: it quotes values in some messages.
            throw StorageError(.queryFailed, "a statement failed: SQLite error \(error.code)")
        }
    }

    /// Commits in place, on ``SQLiteThread``: the commit writes the WAL (and, should the checkpointer fall far
    /// behind, checkpoints it, syncing the files), which blocks that thread only, not one of the few that run Swift's
    /// other tasks.
    fileprivate func commit() throws {
        try execute("COMMIT", [])
    }

    /// The executor a transaction's body gets: the storage's connection without taking the lock again.
    private struct Executor: SQLExecutor {
        let storage: SQLiteStorage
        let failure = StatementFailure()
        var dialect: SQLDialect { .sqlite }

        func query(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
            do {
                return try storage.execute(sql, binds)
            } catch {
                throw failure.record(error)
            }
        }

        /// The connection's own count of the rows the insert changed (nothing else runs on it in between: the
        /// transaction holds it), rather than `RETURNING` or a `SELECT changes()` statement, two per authorization.
        func inserted(
            _ insert: String, _ binds: [SQLValue], returning column: String
        ) async throws(StorageError) -> Bool {
            do {
                try storage.execute(insert, binds)
            } catch {
                throw failure.record(error)
            }
            return storage.handle.changes == 1
        }
    }
}
