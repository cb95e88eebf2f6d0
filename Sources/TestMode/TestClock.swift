public import Foundation

/// A clock tests move by hand, shared by a gateway, a reader SDK and test cards so that time-based rules (the 60 s
/// of sealed card data, the 55 s PIN window, 24-hour device limits, token expiry) are deterministic.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// A clock at `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    /// The current time.
    public var now: Date { lock.withLock { current } }
    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) { lock.withLock { current += interval } }
    /// Sets the clock.
    public func set(_ date: Date) { lock.withLock { current = date } }
    /// The clock as the `@Sendable () -> Date` the modules take.
    public var function: @Sendable () -> Date { { self.now } }
}
