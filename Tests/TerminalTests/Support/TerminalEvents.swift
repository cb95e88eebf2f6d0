import Foundation
import TapToPay
import Terminal
import Testing

/// A terminal's events as a consumer task records them during a test: tests wait for an event to act while a sale
/// waits (for a card, say) and check whole sequences.
final class TerminalEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [ReaderSDK.Event] = []

    /// Runs `body` while recording `sdk`'s events.
    static func record(_ sdk: ReaderSDK, _ body: @Sendable (TerminalEvents) async throws -> Void) async throws {
        let recorder = TerminalEvents()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in sdk.events { recorder.lock.withLock { recorder.seen.append(event) } }
            }
            defer { group.cancelAll() }
            try await body(recorder)
        }
    }

    /// Waits (at most 5 s) until `event` was recorded; the events up to it are taken.
    @discardableResult
    func wait(for event: ReaderSDK.Event, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [ReaderSDK
        .Event]
    {
        for _ in 0..<2_500 {
            let taken: [ReaderSDK.Event]? = lock.withLock {
                guard let index = seen.firstIndex(of: event) else { return nil }
                defer { seen.removeFirst(index + 1) }
                return Array(seen[...index])
            }
            if let taken { return taken }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("no \(event) within 5 s; saw \(lock.withLock { seen })", sourceLocation: sourceLocation)
        return []
    }

    /// Everything recorded so far, after a short pause for late events (taken).
    func drain() async throws -> [ReaderSDK.Event] {
        try await Task.sleep(for: .milliseconds(50))
        return lock.withLock {
            defer { seen.removeAll() }
            return seen
        }
    }

    /// Checks that everything recorded so far is `expected` (and takes it).
    func expect(_ expected: [ReaderSDK.Event], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let events = try await drain()
        #expect(events == expected, sourceLocation: sourceLocation)
    }
}

extension ReaderSDK.Event {
    /// The reader's events of a read that succeeds.
    static let readSucceeded: [ReaderSDK.Event] = [
        .reader(.readyForTap), .reader(.cardDetected), .reader(.removeCard), .reader(.readCompleted),
        .reader(.userInterfaceDismissed),
    ]
    /// The reader's events of a PIN entry that ends with a PIN (or a bypass, or a PIN entered too late).
    static let pinEntered: [ReaderSDK.Event] = [
        .reader(.pinEntryRequested), .reader(.pinEntryCompleted), .reader(.userInterfaceDismissed),
    ]
    /// A device's first configuration at the PSP.
    static let firstConfiguration: [ReaderSDK.Event] =
        [.configurationStatus(.configuring)] + [0, 25, 50, 75, 100].map { .configurationProgress($0) }
        + [.configurationStatus(.configured)]
    /// A configuration of a device the PSP knows.
    static let reconfiguration: [ReaderSDK.Event] = [
        .configurationStatus(.configuring), .configurationStatus(.configured),
    ]
}
