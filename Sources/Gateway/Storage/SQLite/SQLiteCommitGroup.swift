import Synchronization

/// Group commit for SQLite's single connection: the lock that serialises its users, and the group of transactions
/// that share one `COMMIT`.
///
/// The holder of the lock runs its transaction inside the group's open write transaction (`BEGIN IMMEDIATE`, then
/// a `SAVEPOINT` per member). When it is done and others are already waiting for the lock, it hands the lock on
/// without committing and waits for the group's commit; the last member (no one waiting, or the group full)
/// commits, and every member learns the outcome together. No member returns before its writes are on disk (it
/// waits for ``SQLiteWALSync`` after the lock is given up), as with a commit per transaction; a commit that fails
/// fails every member of the group (none was acknowledged).
///
/// Under load this turns N commits into one; alone, a transaction commits at once, as before. The state sits behind
/// a mutex rather than in an actor: each step is a few instructions, and an actor hop per step cost more than the
/// SQL of a small transaction.
final class SQLiteCommitGroup: Sendable {
    /// At most this many members share one commit, so a steady stream of transactions still commits often.
    static let maximumMembers = 32

    private struct State {
        var locked = false
        var lockWaiters: [CheckedContinuation<Void, Never>] = []
        /// Whether the group's write transaction is open on the connection.
        var isOpen = false
        var members = 0
        /// Members waiting for the group's commit; they learn its sequence number (``SQLiteWALSync``).
        var awaitingCommit: [CheckedContinuation<UInt64, any Error>] = []

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

    /// The holder began the group's write transaction.
    func opened() {
        state.withLock { state in
            state.isOpen = true
            state.members = 0
        }
    }

    /// The holder's member is done: true when it should commit now (no one is waiting for the lock, or the group is
    /// full); false when it should hand over with ``handOverAndAwaitCommit()``.
    func memberFinished() -> Bool {
        state.withLock { state in
            state.members += 1
            return state.lockWaiters.isEmpty || state.members >= Self.maximumMembers
        }
    }

    /// Passes the lock to the next waiter, which carries the group on, and waits for the group's outcome: the
    /// sequence number of its commit.
    func handOverAndAwaitCommit() async throws -> UInt64 {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UInt64, any Error>) in
            state.withLock { state in
                state.awaitingCommit.append(continuation)
                return state.release()
            }?.resume()
        }
    }

    /// The holder committed the group (or rolled it back, with the error): the group closes and every member
    /// waiting for it gets the outcome.
    func closed(_ outcome: Result<UInt64, any Error>) {
        let waiting = state.withLock { state in
            state.isOpen = false
            state.members = 0
            let waiting = state.awaitingCommit
            state.awaitingCommit = []
            return waiting
        }
        for continuation in waiting { continuation.resume(with: outcome) }
    }
}
