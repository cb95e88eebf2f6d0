/// The result of ``ReaderKernel/perform(_:over:)``: the outcome, the kernel's decisions in order, and every APDU
/// exchanged.
public struct TransactionResult: Sendable {
    /// How the transaction ended.
    public var outcome: Outcome
    /// The entry point's and kernel's decisions, in order (the last one is the outcome).
    public var events: [KernelEvent]
    /// The commands and responses, in order.
    public var exchanges: [APDUExchange]

    /// Creates a result.
    public init(outcome: Outcome, events: [KernelEvent], exchanges: [APDUExchange]) {
        self.outcome = outcome
        self.events = events
        self.exchanges = exchanges
    }
}
