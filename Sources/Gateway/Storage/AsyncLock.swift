/// A first-come, first-served lock for async code: SQLite's single connection must not interleave two
/// transactions' statements.
actor AsyncLock {
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` while holding the lock.
    func withLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        guard locked else {
            locked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            locked = false
        } else {
            // Ownership passes straight to the next waiter, so no newcomer can barge in between.
            waiters.removeFirst().resume()
        }
    }
}
