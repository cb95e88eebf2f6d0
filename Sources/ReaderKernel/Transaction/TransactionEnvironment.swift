public import Foundation

/// The inputs of one transaction that come from the device rather than the merchant: the moment it happens, the
/// terminal's time zone and the Unpredictable Number. Passing them in keeps the kernel a pure function of its inputs,
/// so tests and trace replays are deterministic.
public struct TransactionEnvironment: Sendable, Hashable {
    /// When the transaction takes place (Transaction Date 9A and Time 9F21, in ``timeZone``; ODA expiry checks).
    public var date: Date
    /// The terminal's time zone, for the local date and time EMV wants.
    public var timeZone: TimeZone
    /// The Unpredictable Number (9F37), 4 bytes.
    public var unpredictableNumber: [UInt8]

    /// Creates an environment.
    public init(date: Date, timeZone: TimeZone, unpredictableNumber: [UInt8]) {
        self.date = date
        self.timeZone = timeZone
        self.unpredictableNumber = unpredictableNumber
    }
}
