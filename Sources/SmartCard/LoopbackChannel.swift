public import EMV

/// A card channel wired to an applet in the same process: the reader kernel talks to a ``EMV/CardApplet`` with no
/// radio, no daemon and no thread hop beyond the actor.
///
/// Each command is encoded to bytes and parsed back before the applet sees it, and each response likewise before
/// the caller does, so the loopback exercises the real APDU codecs the way a wire would. Faults from a
/// ``FaultPlan`` (latency, card removal, torn transactions, time-outs, corrupted or truncated responses) are injected
/// deterministically.
///
/// ```swift
/// let channel = LoopbackChannel(applet: card)
/// let outcome = try await kernel.run(over: channel)
/// let atc = await channel.applet.atc          // inspect the card after the transaction
/// await channel.presentCard()                // tap again: the applet resets
/// ```
public actor LoopbackChannel<Applet: CardApplet>: CardChannel {
    /// The applet as it is now, between transactions; change it with ``withApplet(_:)``.
    public private(set) var applet: Applet
    /// The faults being injected; replace them with ``setFaults(_:)``.
    public private(set) var faults: FaultPlan
    /// Commands transmitted since the fault plan was installed (the count fault triggers use).
    public private(set) var commandCount = 0
    /// Whether the card is in the field; a removed card answers every command with
    /// ``SmartCardError/Code/cardRemoved`` until ``presentCard()``.
    public private(set) var isCardPresent = true

    /// Per instruction byte, commands seen since the plan was installed; allocated only when the plan has faults.
    private var instructionCounts: [Int] = []
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a channel to `applet`, sleeping latency on the continuous clock.
    public init(applet: Applet, faults: FaultPlan = .none) {
        self.init(applet: applet, faults: faults, clock: ContinuousClock())
    }

    /// Creates a channel to `applet`, sleeping any latency on `clock` (inject a test clock to keep tests instant).
    public init(applet: Applet, faults: FaultPlan = .none, clock: some Clock<Duration>) {
        self.applet = applet
        self.faults = faults
        self.sleep = { duration in try await clock.sleep(for: duration) }
        if !faults.faults.isEmpty { instructionCounts = Array(repeating: 0, count: 256) }
    }

    /// Installs a new fault plan and restarts the command counts its triggers use.
    public func setFaults(_ plan: FaultPlan) {
        faults = plan
        commandCount = 0
        instructionCounts = plan.faults.isEmpty ? [] : Array(repeating: 0, count: 256)
    }

    /// Reads or changes the applet between transactions, e.g. to authenticate the cardholder in the wallet.
    public func withApplet<Result: Sendable, Failure: Error>(
        _ body: (inout Applet) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(&applet)
    }

    /// The card leaves the field: it loses power, so the applet resets, and commands fail until it comes back.
    public func removeCard() {
        if isCardPresent { applet.reset() }
        isCardPresent = false
    }

    /// The card enters the field. If it was already there this is a new tap: it leaves and comes back, and resets.
    public func presentCard() {
        if isCardPresent { applet.reset() }
        isCardPresent = true
    }

    /// Sends `command` through the codecs to the applet and returns its answer, with any faults the plan injects.
    public func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        commandCount += 1
        var actions: [Fault.Action] = []
        if !faults.faults.isEmpty { actions = triggeredActions(for: command) }
        if faults.latency > .zero {
            do {
                try await sleep(faults.latency)
            } catch {
                throw SmartCardError(code: .transmissionFailed, message: "cancelled while waiting for the card")
            }
        }
        guard isCardPresent else {
            throw SmartCardError(code: .cardRemoved, message: "the card is not in the field")
        }
        if actions.contains(.removeCard) {
            removeCard()
            throw SmartCardError(
                code: .cardRemoved, message: "the card left the field before command \(commandCount) (injected)")
        }
        if actions.contains(.timeOut) {
            throw SmartCardError(code: .timedOut, message: "no answer to command \(commandCount) in time (injected)")
        }
        let received: CommandAPDU
        do {
            received = try CommandAPDU(bytes: command.bytes)
        } catch {
            // A CommandAPDU value always encodes to bytes its parser accepts; this guards the codecs, not callers.
            throw SmartCardError(code: .transmissionFailed, message: "the command did not survive encoding")
        }
        var bytes = applet.respond(to: received).bytes
        for action in actions {
            switch action {
            case .loseResponse:
                removeCard()
                throw SmartCardError(
                    code: .cardRemoved,
                    message: "the card left the field before answering command \(commandCount) (injected)")
            case .corruptByte(let index, let mask):
                let position = index < 0 ? bytes.count + index : index
                if bytes.indices.contains(position) { bytes[position] ^= mask }
            case .truncate(let length):
                if length < bytes.count { bytes.removeSubrange(max(length, 0)...) }
            case .removeCard, .timeOut:
                break
            }
        }
        do {
            return try ResponseAPDU(bytes: bytes)
        } catch {
            throw SmartCardError(
                code: .malformedResponse,
                message: "response to command \(commandCount) has \(bytes.count) bytes, fewer than a status word")
        }
    }

    /// The actions of the faults whose trigger matches this command, counting it first.
    private func triggeredActions(for command: CommandAPDU) -> [Fault.Action] {
        let ins = Int(command.ins)
        if instructionCounts.count == 256 { instructionCounts[ins] += 1 }
        let occurrence = instructionCounts.count == 256 ? instructionCounts[ins] : 0
        return faults.faults.compactMap { fault in
            switch fault.trigger {
            case .command(let number):
                number == commandCount ? fault.action : nil
            case .instruction(let instruction, let n):
                instruction == command.instruction && n == occurrence ? fault.action : nil
            }
        }
    }
}
