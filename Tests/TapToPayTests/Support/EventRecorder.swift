import Foundation
import TapToPay
import Testing

/// Everything a reader emits, recorded by a consumer task for the length of a test, so a test can wait for an
/// event (to act while a read waits for a card) and check the exact sequences.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PaymentCardReader.Event] = []

    /// Runs `body` with a recorder of `reader`'s events.
    static func watch(
        _ reader: PaymentCardReader, _ body: @Sendable (EventRecorder) async throws -> Void
    ) async throws {
        let recorder = EventRecorder()
        // Taken now: a sequence has the events from when it is made.
        let events = reader.events
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events { recorder.append(event) }
            }
            defer { group.cancelAll() }
            try await body(recorder)
        }
    }

    private func append(_ event: PaymentCardReader.Event) { lock.withLock { events.append(event) } }

    /// The next `count` events (removed from the record); fails the test after 5 s without them.
    func take(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [PaymentCardReader.Event]
    {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let taken: [PaymentCardReader.Event]? = lock.withLock {
                guard events.count >= count else { return nil }
                defer { events.removeFirst(count) }
                return Array(events.prefix(count))
            }
            if let taken { return taken }
            try await Task.sleep(for: .milliseconds(2))
        }
        let seen = lock.withLock { events }
        Issue.record("waited 5 s for \(count) events, saw \(seen)", sourceLocation: sourceLocation)
        return seen
    }

    /// Every event up to and including the first `event` (removed from the record).
    func take(until event: PaymentCardReader.Event) async throws -> [PaymentCardReader.Event] {
        var taken: [PaymentCardReader.Event] = []
        while taken.last != event {
            let next = try await take(1)
            guard next.count == 1 else { break }
            taken += next
        }
        return taken
    }

    /// The events recorded so far, after a pause in which a late event could still arrive (removed).
    func rest() async throws -> [PaymentCardReader.Event] {
        try await Task.sleep(for: .milliseconds(50))
        return lock.withLock {
            defer { events.removeAll() }
            return events
        }
    }
}

extension EventRecorder {
    /// Checks that the next events are `expected` (and takes them).
    func expectNext(
        _ expected: [PaymentCardReader.Event], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let seen = try await take(expected.count, sourceLocation: sourceLocation)
        #expect(seen == expected, sourceLocation: sourceLocation)
    }

    /// Checks that the events recorded from now on, after a pause, are exactly `expected` (and takes them).
    func expectRest(
        _ expected: [PaymentCardReader.Event], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let seen = try await rest()
        #expect(seen == expected, sourceLocation: sourceLocation)
    }
}
