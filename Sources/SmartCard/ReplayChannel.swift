public import EMV

/// A card channel that answers from a recorded ``APDUTrace``, so a reader kernel can be run against the exact bytes
/// of a real card.
///
/// Exchanges are consumed in order. Each command must match the next recorded command, by the rules of
/// ``Options/Matching``:
///
/// - ``Options/Matching/standard`` (the default) compares the header CLA INS P1 P2 always. For commands whose data
///   the terminal makes up afresh each transaction — GET PROCESSING OPTIONS, GENERATE AC, COMPUTE CRYPTOGRAPHIC
///   CHECKSUM, INTERNAL AUTHENTICATE, EXCHANGE RELAY RESISTANCE DATA (``terminalDynamicInstructions``) — only the
///   data length must match: the amount, date and unpredictable number differ from the recording, but a card's PDOL
///   or CDOL fixes the length. Every other command (SELECT, READ RECORD, GET DATA, …) must carry the same data.
///   Le is not compared: it is the terminal's choice (`00` or the exact length) and does not change what a card
///   answers.
/// - ``Options/Matching/exact`` compares the whole command, Le included.
///
/// Two relaxations of the order are optional:
///
/// - ``Options/reordersRecords`` (on by default): a READ RECORD may be answered from any not yet used READ RECORD
///   of the same run of consecutive READ RECORDs in the trace. Records are independent files: the card answers
///   each the same whatever the order, and readers legitimately differ in order — a kernel reads the AFL entries
///   as the card lists them, while many recorders (phone apps, tutorials) read SFI by SFI or retry records.
/// - ``Options/skippableInstructions`` (empty by default): recorded exchanges with these instructions may be
///   passed over when the kernel does not send them, e.g. the GET DATA of the PIN try counter or the transaction
///   log that a card-reading app sends and a payment kernel does not.
///
/// A command that matches nothing throws ``SmartCardError/Code/unexpectedCommand`` with the trace line it was
/// compared with in ``SmartCardError/traceLine``; a command after the last exchange throws
/// ``SmartCardError/Code/traceExhausted``.
public actor ReplayChannel: CardChannel {
    /// How commands are compared with the recording and which departures from its order are allowed.
    public struct Options: Hashable, Sendable {
        /// How a command is compared with a recorded one.
        public enum Matching: Hashable, Sendable {
            /// Header always; data length only for terminal-dynamic commands, data for the rest; Le ignored.
            case standard
            /// Every byte, Le included.
            case exact
        }

        /// How a command is compared with a recorded one.
        public var matching: Matching
        /// Whether READ RECORDs may be answered in another order within a run of them.
        public var reordersRecords: Bool
        /// Instructions of recorded exchanges that may be passed over when the kernel does not send them.
        public var skippableInstructions: Set<Instruction>

        /// Creates options.
        public init(
            matching: Matching = .standard, reordersRecords: Bool = true, skippableInstructions: Set<Instruction> = []
        ) {
            self.matching = matching
            self.reordersRecords = reordersRecords
            self.skippableInstructions = skippableInstructions
        }

        /// Standard matching, READ RECORDs in any order within a run, nothing skipped.
        public static let `default` = Options()
        /// Every byte, in the recorded order.
        public static let strict = Options(matching: .exact, reordersRecords: false)
    }

    /// GET PROCESSING OPTIONS (A8), GENERATE AC (AE), COMPUTE CRYPTOGRAPHIC CHECKSUM (2A), INTERNAL AUTHENTICATE
    /// (88) and EXCHANGE RELAY RESISTANCE DATA (EA): their data is the terminal's, new each transaction.
    public static let terminalDynamicInstructions: Set<Instruction> = [
        .getProcessingOptions, .generateAC, .computeCryptographicChecksum, .internalAuthenticate,
        exchangeRelayResistanceData,
    ]

    /// EXCHANGE RELAY RESISTANCE DATA (EA), Mastercard's relay resistance protocol (EMV Book C-2).
    private static let exchangeRelayResistanceData = Instruction(rawValue: 0xEA)

    /// The recording being replayed.
    public let trace: APDUTrace
    /// The matching rules.
    public let options: Options
    /// Which exchanges have been answered (or skipped).
    private var used: [Bool]
    /// The first exchange not yet used.
    private var cursor = 0
    /// Commands received since the start (or the last ``rewind()``), for error messages.
    private var received = 0

    /// Creates a channel that replays `trace`.
    public init(trace: APDUTrace, options: Options = .default) {
        self.trace = trace
        self.options = options
        self.used = Array(repeating: false, count: trace.exchanges.count)
    }

    /// How many recorded exchanges have not been used yet.
    public var remainingExchanges: Int { used.lazy.filter { !$0 }.count }

    /// Whether every recorded exchange has been used.
    public var isFinished: Bool { cursor >= used.count }

    /// Starts the replay again from the first exchange.
    public func rewind() {
        used = Array(repeating: false, count: trace.exchanges.count)
        cursor = 0
        received = 0
    }

    /// Answers `command` with the recorded response of the exchange it matches.
    public func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        received += 1
        let exchanges = trace.exchanges
        guard cursor < exchanges.count else {
            throw SmartCardError(
                code: .traceExhausted,
                message: "command \(received) (\(Self.summary(command))) arrived after the last recorded exchange")
        }
        var skipped: [Int] = []
        var index = cursor
        while index < exchanges.count {
            if used[index] {
                index += 1
                continue
            }
            let recorded = exchanges[index].command
            if Self.matches(command, recorded: recorded, matching: options.matching) {
                return use(index, skipping: skipped)
            }
            if options.reordersRecords, command.instruction == .readRecord, recorded.instruction == .readRecord,
                let later = laterRecord(matching: command, after: index)
            {
                return use(later, skipping: skipped)
            }
            guard options.skippableInstructions.contains(recorded.instruction) else { break }
            skipped.append(index)
            index += 1
        }
        // Name the exchange the command should have been: the first one not yet used.
        let expected = exchanges[cursor]
        throw SmartCardError(
            code: .unexpectedCommand,
            message:
                "command \(received) (\(Self.summary(command))) does not match trace line \(expected.lineNumber) "
                + "(\(Self.summary(expected.command)))",
            traceLine: expected.lineNumber)
    }

    /// Whether `command` matches the `recorded` one under `matching`.
    public static func matches(_ command: CommandAPDU, recorded: CommandAPDU, matching: Options.Matching) -> Bool {
        switch matching {
        case .exact:
            return command == recorded
        case .standard:
            guard command.cla == recorded.cla, command.ins == recorded.ins, command.p1 == recorded.p1,
                command.p2 == recorded.p2
            else { return false }
            if terminalDynamicInstructions.contains(command.instruction) {
                return command.data.count == recorded.data.count
            }
            return command.data == recorded.data
        }
    }

    /// A later unused READ RECORD in the run of READ RECORDs that starts at `start`, matching `command`.
    private func laterRecord(matching command: CommandAPDU, after start: Int) -> Int? {
        var index = start + 1
        let exchanges = trace.exchanges
        while index < exchanges.count, exchanges[index].command.instruction == .readRecord {
            if !used[index], Self.matches(command, recorded: exchanges[index].command, matching: options.matching) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Marks the exchange (and the skipped ones before it) used, moves the cursor, and returns the response.
    private func use(_ index: Int, skipping skipped: [Int]) -> ResponseAPDU {
        used[index] = true
        for i in skipped { used[i] = true }
        while cursor < used.count, used[cursor] { cursor += 1 }
        return trace.exchanges[index].response
    }

    /// Header bytes and data length: enough to tell commands apart, never their data (a PIN block, a PDOL's values).
    private static func summary(_ command: CommandAPDU) -> String {
        "\([command.cla, command.ins, command.p1, command.p2].hexString), \(command.data.count) data bytes"
    }
}
