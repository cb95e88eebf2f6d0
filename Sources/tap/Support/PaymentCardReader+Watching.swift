import TapToPay

extension PaymentCardReader {
    /// Runs `body` while the reader's events go to `onEvent` as they come, the way an app's UI loop takes them (so
    /// they never pile up); the loop stops when `body` returns or throws.
    func watchingEvents<Result: Sendable>(
        _ onEvent: @escaping @Sendable (Event) -> Void = { _ in },
        during body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        // Taken now: a sequence has the events from when it is made.
        let events = self.events
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                for await event in events { onEvent(event) }
                return nil
            }
            group.addTask { try await body() }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            // Only the event loop ended, which it does not before cancellation.
            throw CancellationError()
        }
    }
}
