import Foundation

/// Lets concurrent tasks wait for each other: the `parties`-th arrival releases every waiter.
actor Barrier {
    private let parties: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) { self.parties = parties }

    func arrive() async {
        if waiting.count + 1 >= parties {
            for waiter in waiting { waiter.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// A thread-safe counter, for counting attempts from inside transaction bodies.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        var value: Int { lock.withLock { count } }

        /// Adds one; returns the new count.
        func increment() -> Int { lock.withLock { count += 1; return count } }
    }
}
