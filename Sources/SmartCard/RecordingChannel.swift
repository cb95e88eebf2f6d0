public import EMV

/// A card channel that passes every command to another channel and records the exchange with its timing, for
/// `tap demo --trace`, for tests that check what a kernel sent, and to capture new ``APDUTrace``s.
///
/// ```swift
/// let recorder = RecordingChannel(LoopbackChannel(applet: card))
/// _ = try await kernel.run(over: recorder)
/// for exchange in await recorder.exchanges { print(exchange.command, exchange.duration) }
/// let trace = await recorder.trace(header: ["source: tap demo"])
/// ```
public actor RecordingChannel: CardChannel {
    /// One command, what came back, and when.
    public struct Exchange: Hashable, Sendable {
        /// The command sent.
        public var command: CommandAPDU
        /// The response, or the error the channel threw.
        public var result: Result<ResponseAPDU, SmartCardError>
        /// When the command was sent, counted from the recorder's creation (or its last ``RecordingChannel/clear()``).
        public var start: Duration
        /// How long the channel took to answer.
        public var duration: Duration

        /// The response, nil when the channel threw.
        public var response: ResponseAPDU? {
            if case .success(let response) = result { response } else { nil }
        }
    }

    /// The channel being recorded.
    public nonisolated let base: any CardChannel
    /// Every exchange so far, in order.
    public private(set) var exchanges: [Exchange] = []

    private let now: @Sendable () -> Duration
    private var origin: Duration

    /// Records `base`, timing exchanges on `clock`.
    public init(_ base: any CardChannel, clock: some Clock<Duration> = ContinuousClock()) {
        self.base = base
        let start = clock.now
        // Elapsed time since a fixed instant of the clock, so an exchange's start and duration are plain Durations.
        self.now = { start.duration(to: clock.now) }
        self.origin = .zero
    }

    /// Sends `command` through the recorded channel and records the exchange, including a thrown error.
    public func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        let start = now()
        let result: Result<ResponseAPDU, SmartCardError>
        do {
            result = .success(try await base.transmit(command))
        } catch {
            result = .failure(error)
        }
        let end = now()
        exchanges.append(Exchange(command: command, result: result, start: start - origin, duration: end - start))
        return try result.get()
    }

    /// Forgets the exchanges recorded so far and restarts the clock.
    public func clear() {
        exchanges = []
        origin = now()
    }

    /// The answered exchanges as a trace; exchanges that threw are left out (a trace records responses).
    ///
    /// With `timings`, each exchange carries its start and duration as a note, e.g. `# +1.204 ms, 0.052 ms`.
    public func trace(header: [String] = [], timings: Bool = false) -> APDUTrace {
        let answered = exchanges.compactMap { exchange -> APDUTrace.Exchange? in
            guard let response = exchange.response else { return nil }
            let note = timings ? "+\(Self.milliseconds(exchange.start)), \(Self.milliseconds(exchange.duration))" : nil
            return APDUTrace.Exchange(command: exchange.command, response: response, note: note)
        }
        return APDUTrace(header: header, exchanges: answered)
    }

    /// A duration in milliseconds with three decimals (microsecond resolution), e.g. `0.052 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let microseconds = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }
}
