/// The faults a ``LoopbackChannel`` injects: a latency per APDU and a list of one-off failures.
///
/// Faults are deterministic: each names the command it hits (the Nth command since the plan was installed, or the
/// Nth command with a given instruction), so a test of "card removed during GENERATE AC" fails the same way every
/// run. The default plan, ``none``, injects nothing and costs nothing per APDU.
public struct FaultPlan: Hashable, Sendable {
    /// Time the card takes to answer each command, slept on the channel's clock; zero (no sleep) by default.
    public var latency: Duration
    /// The one-off faults, applied in order when their trigger matches.
    public var faults: [Fault]

    /// Creates a plan.
    public init(latency: Duration = .zero, faults: [Fault] = []) {
        self.latency = latency
        self.faults = faults
    }

    /// No latency and no faults.
    public static let none = FaultPlan()

    /// Whether the plan injects nothing.
    public var isEmpty: Bool { latency <= .zero && faults.isEmpty }
}
