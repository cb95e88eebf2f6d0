public import Foundation

/// What the PIN pad is asked for.
public struct PINEntryRequest: Sendable, Hashable {
    /// The read the PIN is for.
    public var readID: String
    /// When the PIN window of the read closes (55 s after it): an entry finished later is refused.
    public var deadline: Date

    /// Creates a request.
    public init(readID: String, deadline: Date) {
        self.readID = readID
        self.deadline = deadline
    }
}

/// What the cardholder did on the PIN pad.
///
/// The PIN lives only until the reader enciphers it; ``description`` never shows it.
public enum PINEntry: Sendable, Hashable, CustomStringConvertible {
    /// A PIN was entered: 4 to 12 digits.
    case entered(String)
    /// The cardholder skipped PIN entry.
    case bypassed
    /// The cardholder cancelled.
    case cancelled
    /// The pad gave up waiting.
    case timedOut

    /// The kind of entry, never the PIN.
    public var description: String {
        switch self {
        case .entered: "entered"
        case .bypassed: "bypassed"
        case .cancelled: "cancelled"
        case .timedOut: "timedOut"
        }
    }
}
