import Foundation
import SmartCard

/// Collects a link's events from its thread, for tests to wait on.
final class EventLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var events: [VirtualCardEvent] = []

    func record(_ event: VirtualCardEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [VirtualCardEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    /// Waits until an event matches, polling every few milliseconds; false after `limit`.
    func wait(
        within limit: Duration = .seconds(5), until predicate: (VirtualCardEvent) -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if all.contains(where: predicate) { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return all.contains(where: predicate)
    }
}
