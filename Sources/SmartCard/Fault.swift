public import EMV

/// One injected failure: which command it hits and what goes wrong.
public struct Fault: Hashable, Sendable {
    /// Which command a fault hits; counts start at 1 when the plan is installed.
    public enum Trigger: Hashable, Sendable {
        /// The Nth command transmitted (1-based).
        case command(number: Int)
        /// The Nth command (1-based) with this instruction, e.g. `.instruction(.generateAC)`.
        case instruction(Instruction, occurrence: Int = 1)
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
        /// The command never gets an answer in time: the applet does not see it, the transmit throws
        /// ``SmartCardError/Code/timedOut``, and the card stays in the field.
        case timeOut
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

    /// The triggering command times out without reaching the card.
    public static func timedOut(at trigger: Trigger) -> Fault {
        Fault(.timeOut, at: trigger)
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
