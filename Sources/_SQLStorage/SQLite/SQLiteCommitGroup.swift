import Synchronization

/// Group commit for SQLite's single connection: the lock that serialises its users, and the group of transactions
/// that share one `COMMIT`.
///
/// The holder of the lock runs its transaction inside the group's open write transaction (`BEGIN IMMEDIATE`, then
/// a `SAVEPOINT` per member). When it is done it commits only if that is useful now: while others wait for the lock
/// it hands the lock on, and while a sync of the WAL is under way (``SQLiteWALSync``) it parks the group, open, with
/// the lock free — a commit made now would reach the disk only with the next sync, which cannot begin before this
/// one ends, so the group takes in every transaction until then and commits once, when the sync ends
/// (``onCommitOwed(_:)``). Every member that waits for the commit learns
/// its outcome together. No member that waits for the disk returns before its writes are on disk; a commit that
/// fails fails every member of the group (none was acknowledged).
///
/// A member that does not wait for the disk (``SQLDatabase/transactionDurableLater(_:)``) does not wait for the
/// commit either: it leaves its writes in the open group, where everything after it sees them, and returns. Should
/// that group then fail to commit, those writes are gone although their transaction returned, so the group records
/// the failure and refuses every later member (``failure``): nothing written after them can be acknowledged.
///
/// Under load this turns a sync period's commits into one: each commit writes every page it changed to the WAL, and
/// most transactions change the same last pages of the same tables and indexes. Alone, a transaction commits at
/// once, as before. The state sits behind a mutex rather than in an actor: each step is a few instructions, and an
/// actor hop per step cost more than the SQL of a small transaction.
final class SQLiteCommitGroup: Sendable {
    /// At most this many members share one commit: bounds a commit's WAL writes and what one failure undoes.
    static let maximumMembers = 256

    private struct State {
        var locked = false
        var lockWaiters: [CheckedContinuation<Void, Never>] = []
        /// Whether the group's write transaction is open on the connection.
        var isOpen = false
        var members = 0
        /// Members waiting for the group's commit; they learn its sequence number (``SQLiteWALSync``).
        var awaitingCommit: [CheckedContinuation<UInt64, any Error>] = []
        /// Whether the group holds writes of members that returned without waiting for its commit.
        var holdsReturnedWrites = false
        /// Whether a sync of the WAL is under way, or owed to a parked group's commit (see ``syncFinished()``):
        /// either way a finished group parks rather than commits.
        var syncing = false
        /// Why a group with returned writes failed; every later member is refused.
        var failure: (any Error)?
        /// Called when a parked group is owed its commit (see ``onCommitOwed(_:)``).
        var commitOwed: (@Sendable () -> Void)?

        /// Takes the lock if it is free.
        mutating func take() -> Bool {
            guard !locked else { return false }
            locked = true
            return true
        }

        /// Gives the lock up, or passes it straight to the next waiter (returned, to be resumed outside the mutex).
        mutating func release() -> CheckedContinuation<Void, Never>? {
            if lockWaiters.isEmpty {
                locked = false
                return nil
            }
            return lockWaiters.removeFirst()
        }

        /// Gives the lock up with the group open: to the next waiter, or parking the group; returns the waiter to
        /// resume and, when the group is parked with no sync under way (it ended since the holder looked), the
        /// callback that gets it committed (and synced: until then commits are held back as during a sync).
        mutating func leave() -> (CheckedContinuation<Void, Never>?, (@Sendable () -> Void)?) {
            let next = release()
            guard next == nil, !syncing else { return (next, nil) }
            syncing = true
            return (nil, commitOwed)
        }
    }

    private let state = Mutex(State())

    /// Takes the lock, first come first served.
    func acquire() async {
        // A free lock is taken without suspending; otherwise queue, unless it came free meanwhile.
        if state.withLock({ $0.take() }) { return }
        await withCheckedContinuation { continuation in
            let taken = state.withLock { state in
                if state.take() { return true }
                state.lockWaiters.append(continuation)
                return false
            }
            if taken { continuation.resume() }
        }
    }

    /// Gives the lock up; ownership passes straight to the next waiter, so no newcomer barges in.
    func release() {
        state.withLock { $0.release() }?.resume()
    }

    /// Whether the group's write transaction is open on the connection (asked by the holder of the lock).
    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Why the database refuses work: a group holding writes of transactions that had returned failed.
    var failure: (any Error)? { state.withLock { $0.failure } }

    /// The holder began the group's write transaction.
    func opened() {
        state.withLock { state in
            state.isOpen = true
            state.members = 0
        }
    }

    /// Sets what gets a parked group committed when its commit is owed (called without the lock held, from any
    /// thread): it takes the lock, commits the group if it is still open and starts that commit's sync; when there
    /// is no sync to start (no open group, or the commit failed) it calls ``syncFinished()``, since commits are held
    /// back from the moment the commit is owed until that sync ends.
    func onCommitOwed(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.commitOwed = body }
    }

    /// The holder's member is done: true when it should commit the group now (the group is full, or no one waits
    /// for the lock and no sync is under way); otherwise it leaves the group open with ``handOverAndAwaitCommit()``
    /// or ``handOverReturning(withWrites:)``.
    func memberFinished() -> Bool {
        state.withLock { state in
            state.members += 1
            return state.members >= Self.maximumMembers || (state.lockWaiters.isEmpty && !state.syncing)
        }
    }

    /// Gives the lock up with the group open (to the next waiter, or parked) and waits for the group's outcome: the
    /// sequence number of its commit.
    func handOverAndAwaitCommit() async throws -> UInt64 {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UInt64, any Error>) in
            let (next, commitOwed) = state.withLock { state in
                state.awaitingCommit.append(continuation)
                return state.leave()
            }
            next?.resume()
            commitOwed?()
        }
    }

    /// Gives the lock up with the group open, without waiting for its commit; `withWrites`: the holder's writes are
    /// in it (it did not fail).
    func handOverReturning(withWrites: Bool) {
        let (next, commitOwed) = state.withLock { state in
            if withWrites { state.holdsReturnedWrites = true }
            return state.leave()
        }
        next?.resume()
        commitOwed?()
    }

    /// The holder committed the group (or rolled it back, with the error): the group closes and every member
    /// waiting for it gets the outcome. A failed group that held returned writes refuses all later work.
    func closed(_ outcome: Result<UInt64, any Error>) {
        let waiting = state.withLock { state in
            if case .failure(let error) = outcome, state.holdsReturnedWrites, state.failure == nil {
                state.failure = error
            }
            state.isOpen = false
            state.members = 0
            state.holdsReturnedWrites = false
            let waiting = state.awaitingCommit
            state.awaitingCommit = []
            return waiting
        }
        for continuation in waiting { continuation.resume(with: outcome) }
    }

    /// A sync of the WAL began: from now on a finished group parks rather than commits.
    func syncStarted() {
        state.withLock { $0.syncing = true }
    }

    /// The sync ended: a parked group (open, no one holding the lock) is owed its commit now, and commits stay held
    /// back until the sync that commit starts (transactions finishing in between would each commit alone). A group
    /// whose member holds the lock commits when that member (or the last it hands over to) is done.
    func syncFinished() {
        let commitOwed = state.withLock { state in
            if state.isOpen && !state.locked { return state.commitOwed }
            state.syncing = false
            return nil
        }
        commitOwed?()
    }
}
