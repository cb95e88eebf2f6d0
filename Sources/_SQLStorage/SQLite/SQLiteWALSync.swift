import NIOPosix

/// Makes committed transactions durable outside SQLite's lock: the connection commits with `synchronous=NORMAL`
/// (the commit writes the WAL but does not wait for the disk), and this syncs the WAL file afterwards, while the
/// next group already runs; a member returns only once a sync begun after its commit has finished.
///
/// With `synchronous=FULL` the commit itself waited for the disk while holding the one connection, so no statement
/// could run for the length of every fsync (several milliseconds here), and that wait, not the CPU, bounded the
/// gateway's rate. A sync covers every commit before it, so one sync serves every group committed while the
/// previous one ran. SQLite still syncs the WAL before each checkpoint and the WAL header after a restart (those
/// are kept by `NORMAL`), so what is acknowledged is exactly as durable as with `FULL`.
///
/// A failed sync fails every transaction waiting for it and every later one: after a failed fsync the kernel may
/// have dropped the pages, so nothing written since can be acknowledged.
actor SQLiteWALSync {
    /// How one sync is done (nil: nothing to sync, an in-memory database).
    private let sync: (@Sendable () throws -> Void)?
    /// Commits counted so far (the holder of the lock counts each right after it returns, so in commit order).
    private var committed: UInt64 = 0
    /// The last commit a finished sync covers.
    private var durable: UInt64 = 0
    private var isSyncing = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var failure: (any Error)?
    /// Told when each sync begins (true) and ends (false): ``SQLiteCommitGroup`` holds commits back meanwhile.
    private let syncing: @Sendable (Bool) -> Void

    /// A syncer running `sync` (on NIO's thread pool: it waits for the disk), or none for an in-memory database;
    /// `syncing` hears when each sync begins and ends.
    init(sync: (@Sendable () throws -> Void)?, syncing: @escaping @Sendable (Bool) -> Void = { _ in }) {
        self.sync = sync
        self.syncing = syncing
    }

    /// Counts a commit that just returned; call it while still holding the connection's lock.
    func didCommit() -> UInt64 {
        committed += 1
        return committed
    }

    /// Returns once commit `sequence` is on disk; the first waiter finding no sync under way runs one (for every
    /// commit counted so far), the others wait for it and check again.
    func waitUntilDurable(_ sequence: UInt64) async throws {
        guard let sync else { return }
        while true {
            if let failure { throw failure }
            if durable >= sequence { return }
            if isSyncing {
                await withCheckedContinuation { waiters.append($0) }
                continue
            }
            isSyncing = true
            syncing(true)
            let target = committed
            do {
                try await NIOThreadPool.singleton.runIfActive { try sync() }
                durable = max(durable, target)
            } catch {
                failure = error
            }
            isSyncing = false
            syncing(false)
            let woken = waiters
            waiters = []
            for waiter in woken { waiter.resume() }
        }
    }

    /// Returns once every commit counted so far is on disk (also before the connection closes: no sync may run
    /// on a closed connection).
    func waitUntilAllDurable() async throws {
        try await waitUntilDurable(committed)
    }
}
