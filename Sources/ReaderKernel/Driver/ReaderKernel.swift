import EMV
public import Foundation
public import SmartCard

/// The reader kernel's I/O shell: runs a ``KernelTransaction`` over any `CardChannel` (the in-process loopback, a
/// recorded trace, a PC/SC reader) and returns the outcome with the transcript of decisions and APDUs.
///
/// ```swift
/// let kernel = ReaderKernel(configuration: .default(caPublicKeys: keys))
/// let result = await kernel.perform(TransactionRequest(amount: Amount(minorUnits: 1234, currency: .eur)), over: channel)
/// if result.outcome.status == .onlineRequest { send(result.outcome.authorizationData) }
/// ```
///
/// The clock and the unpredictable number source are injected, so a test or trace replay pins them.
public struct ReaderKernel: Sendable {
    /// The reader's configuration.
    public var configuration: ReaderConfiguration
    /// The current time, for Transaction Date and Time.
    public var clock: @Sendable () -> Date
    /// The terminal's time zone.
    public var timeZone: TimeZone
    /// A fresh 4-byte Unpredictable Number per transaction.
    public var unpredictableNumbers: @Sendable () -> [UInt8]

    /// Creates a kernel; by default the system clock, the current time zone and the system's random numbers.
    public init(
        configuration: ReaderConfiguration, clock: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current,
        unpredictableNumbers: @escaping @Sendable () -> [UInt8] = ReaderKernel.randomUnpredictableNumber
    ) {
        self.configuration = configuration
        self.clock = clock
        self.timeZone = timeZone
        self.unpredictableNumbers = unpredictableNumbers
    }

    /// Four bytes from the system's cryptographically secure generator.
    @Sendable
    public static func randomUnpredictableNumber() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A transaction for `request` with the clock's time and a new unpredictable number, to drive by hand.
    public func transaction(for request: TransactionRequest) -> KernelTransaction {
        KernelTransaction(
            configuration: configuration, request: request,
            environment: TransactionEnvironment(
                date: clock(), timeZone: timeZone, unpredictableNumber: unpredictableNumbers()))
    }

    /// Runs one transaction over `channel`.
    ///
    /// Transport errors end it with Try Again ("present card again"): card removed, transmission failed, malformed
    /// response or timeout, each its own ``OutcomeReason``.
    public func perform(_ request: TransactionRequest, over channel: some CardChannel) async -> TransactionResult {
        var transaction = transaction(for: request)
        var exchanges: [APDUExchange] = []
        var action = transaction.start()
        while true {
            switch action {
            case .complete(let outcome):
                return TransactionResult(outcome: outcome, events: transaction.events, exchanges: exchanges)
            case .transmit(let command):
                do {
                    let response = try await channel.transmit(command)
                    exchanges.append(APDUExchange(command: command, response: response))
                    action = transaction.receive(response)
                } catch {
                    exchanges.append(APDUExchange(command: command, response: nil, error: error))
                    action = .complete(transaction.transportFailed(error))
                }
            }
        }
    }
}
