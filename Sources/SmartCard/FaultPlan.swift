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

/// One injected failure: which command it hits and what goes wrong.
public struct Fault: Hashable, Sendable {
    /// Which command a fault hits; counts start at 1 when the plan is installed.
    public enum Trigger: Hashable, Sendable {
        /// The Nth command transmitted (1-based).
        case command(number: Int)
        /// The Nth command (1-based) with this instruction byte, e.g. `0xAE` for GENERATE AC.
        case instruction(UInt8, occurrence: Int = 1)
    }

    /// What goes wrong.
    public enum Action: Hashable, Sendable {
        /// The card leaves the field before the command reaches it: the applet never sees the command, the
        /// transmit throws ``SmartCardError/Code/cardRemoved``, and the card stays away until
        /// ``LoopbackChannel/presentCard()``.
        case removeCard
        /// The card processes the command (its ATC may move, a key may be spent) and leaves the field before the
        /// response arrives: a torn transaction. Throws ``SmartCardError/Code/cardRemoved``.
        case loseResponse
        /// XORs `mask` into the response byte at `index` of the encoded response (data then SW1 SW2); a negative
        /// index counts from the end, so -2 is SW1. An index outside the response changes nothing.
        case corruptByte(at: Int, mask: UInt8 = 0xFF)
        /// Cuts the encoded response to its first `length` bytes; fewer than two (no status word) makes the
        /// transmit throw ``SmartCardError/Code/malformedResponse``.
        case truncate(toLength: Int)
    }

    /// Which command the fault hits.
    public var trigger: Trigger
    /// What goes wrong there.
    public var action: Action

    /// Creates a fault.
    public init(_ action: Action, at trigger: Trigger) {
        self.trigger = trigger
        self.action = action
    }

    /// The card leaves the field after answering `count` commands: command `count + 1` throws
    /// ``SmartCardError/Code/cardRemoved``.
    public static func cardRemoved(afterCommands count: Int) -> Fault {
        Fault(.removeCard, at: .command(number: count + 1))
    }

    /// The card leaves the field when the triggering command is sent, before processing it.
    public static func cardRemoved(at trigger: Trigger) -> Fault {
        Fault(.removeCard, at: trigger)
    }

    /// The card processes the triggering command and leaves the field before answering.
    public static func responseLost(at trigger: Trigger) -> Fault {
        Fault(.loseResponse, at: trigger)
    }

    /// The triggering command's response has the byte at `index` flipped (XOR `mask`).
    public static func corruptedResponse(at trigger: Trigger, byte index: Int, mask: UInt8 = 0xFF) -> Fault {
        Fault(.corruptByte(at: index, mask: mask), at: trigger)
    }

    /// The triggering command's response is cut to `length` bytes.
    public static func truncatedResponse(at trigger: Trigger, toLength length: Int) -> Fault {
        Fault(.truncate(toLength: length), at: trigger)
    }
}
