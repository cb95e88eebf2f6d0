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
/// Under load this turns N commits into one; alone, a transaction commits at once, as before.
actor SQLiteCommitGroup {
    /// At most this many members share one commit, so a steady stream of transactions still commits often.
    static let maximumMembers = 32

    private var locked = false
    private var lockWaiters: [CheckedContinuation<Void, Never>] = []
    /// Whether the group's write transaction is open on the connection.
    private(set) var isOpen = false
    private var members = 0
    /// Members waiting for the group's commit; they learn its sequence number (``SQLiteWALSync``).
    private var awaitingCommit: [CheckedContinuation<UInt64, any Error>] = []

    /// Takes the lock, first come first served.
    func acquire() async {
        guard locked else {
            locked = true
            return
        }
        await withCheckedContinuation { lockWaiters.append($0) }
    }

    /// Gives the lock up; ownership passes straight to the next waiter, so no newcomer barges in.
    func release() {
        if lockWaiters.isEmpty {
            locked = false
        } else {
            lockWaiters.removeFirst().resume()
        }
    }

    /// The holder began the group's write transaction.
    func opened() {
        isOpen = true
        members = 0
    }

    /// The holder's member is done: true when it should commit now (no one is waiting for the lock, or the group is
    /// full); false when it should hand over with ``handOverAndAwaitCommit()``.
    func memberFinished() -> Bool {
        members += 1
        return lockWaiters.isEmpty || members >= Self.maximumMembers
    }

    /// Passes the lock to the next waiter, which carries the group on, and waits for the group's outcome: the
    /// sequence number of its commit.
    func handOverAndAwaitCommit() async throws -> UInt64 {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UInt64, any Error>) in
            awaitingCommit.append(continuation)
            release()
        }
    }

    /// The holder committed the group (or rolled it back, with the error): the group closes and every member
    /// waiting for it gets the outcome.
    func closed(_ outcome: Result<UInt64, any Error>) {
        isOpen = false
        members = 0
        let waiting = awaitingCommit
        awaitingCommit = []
        for continuation in waiting { continuation.resume(with: outcome) }
    }
}
