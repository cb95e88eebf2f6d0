public import Foundation

/// What the card takes from outside: the time (for key validity) and randomness (ICC dynamic numbers), injected so
/// tests and trace replays are deterministic.
public struct CardEnvironment: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// `count` unpredictable bytes.
    public var randomBytes: @Sendable (_ count: Int) -> [UInt8]

    /// Creates an environment from its two sources.
    public init(now: @escaping @Sendable () -> Date, randomBytes: @escaping @Sendable (_ count: Int) -> [UInt8]) {
        self.now = now
        self.randomBytes = randomBytes
    }

    /// The system clock and the system's secure random numbers.
    public static let system = CardEnvironment(
        now: { Date() },
        randomBytes: { count in
            var generator = SystemRandomNumberGenerator()
            return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
    )

    /// A fixed time and a counter-based byte stream: the same inputs give the same card answers.
    public static func fixed(at date: Date, seed: UInt64 = 0) -> CardEnvironment {
        CardEnvironment(
            now: { date },
            randomBytes: { count in
                var generator = SeededRandomNumberGenerator(seed: seed)
                return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            }
        )
    }
}
