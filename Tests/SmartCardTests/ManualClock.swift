import Foundation

/// A clock whose sleeps return at once and are logged, so latency tests take no time and see exact durations.
struct ManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// Sleeps and the current time, shared by copies of the clock.
    final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var _now = Duration.zero
        private var _sleeps: [Duration] = []
        var now: Duration { lock.withLock { _now } }
        var sleeps: [Duration] { lock.withLock { _sleeps } }
        func sleep(_ duration: Duration) {
            lock.withLock {
                _sleeps.append(duration)
                _now += duration
            }
        }
        func advance(_ duration: Duration) { lock.withLock { _now += duration } }
    }

    let state = State()
    var now: Instant { Instant(offset: state.now) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.sleep(max(deadline.offset - state.now, .zero))
    }
}
