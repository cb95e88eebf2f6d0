public import EMV

/// An error from a card transport: the card is gone, the link failed, or what came back is not a response APDU.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: SmartCardError.cardRemoved)`. Messages never carry
/// APDU bytes (a response may hold a PAN, a command a PIN block).
public struct SmartCardError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case cardRemoved
            case transmissionFailed
            case malformedResponse
            case timedOut
            case unexpectedCommand
            case traceExhausted
            case libraryUnavailable
            case serviceUnavailable
            case noReaders
            case unknownReader
            case cancelled
            case readerFailed
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The card left the field (or was powered off) before it answered.
        public static let cardRemoved = Code(.cardRemoved)
        /// The transport failed to deliver the command or the response.
        public static let transmissionFailed = Code(.transmissionFailed)
        /// The bytes received are not a response APDU (fewer than the two status bytes).
        public static let malformedResponse = Code(.malformedResponse)
        /// No response within the transport's time limit.
        public static let timedOut = Code(.timedOut)
        /// A ``ReplayChannel`` received a command that does not match the recorded one (see ``traceLine``).
        public static let unexpectedCommand = Code(.unexpectedCommand)
        /// A ``ReplayChannel`` received a command after the last recorded exchange.
        public static let traceExhausted = Code(.traceExhausted)
        /// The PC/SC library (libpcsclite) could not be loaded; the message says what to install.
        public static let libraryUnavailable = Code(.libraryUnavailable)
        /// The PC/SC resource manager (pcscd) is not running or went away; the message says how to start it.
        public static let serviceUnavailable = Code(.serviceUnavailable)
        /// PC/SC knows no reader at all.
        public static let noReaders = Code(.noReaders)
        /// No reader has the name asked for; the message lists the readers there are.
        public static let unknownReader = Code(.unknownReader)
        /// The wait was cancelled (`SCardCancel`).
        public static let cancelled = Code(.cancelled)
        /// Any other PC/SC failure; the message names the call and the PC/SC code.
        public static let readerFailed = Code(.readerFailed)

        /// The code's name, as in `SmartCardError.Code.cardRemoved`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt
    /// For replay errors, the line of the trace text whose exchange was expected (not part of equality).
    public let traceLine: Int?

    /// Creates an error.
    public init(code: Code, message: String, traceLine: Int? = nil, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.traceLine = traceLine
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> SmartCardError {
        SmartCardError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/cardRemoved`` error.
    public static let cardRemoved = pattern(.cardRemoved)
    /// Matches any ``Code/transmissionFailed`` error.
    public static let transmissionFailed = pattern(.transmissionFailed)
    /// Matches any ``Code/malformedResponse`` error.
    public static let malformedResponse = pattern(.malformedResponse)
    /// Matches any ``Code/timedOut`` error.
    public static let timedOut = pattern(.timedOut)
    /// Matches any ``Code/unexpectedCommand`` error.
    public static let unexpectedCommand = pattern(.unexpectedCommand)
    /// Matches any ``Code/traceExhausted`` error.
    public static let traceExhausted = pattern(.traceExhausted)
    /// Matches any ``Code/libraryUnavailable`` error.
    public static let libraryUnavailable = pattern(.libraryUnavailable)
    /// Matches any ``Code/serviceUnavailable`` error.
    public static let serviceUnavailable = pattern(.serviceUnavailable)
    /// Matches any ``Code/noReaders`` error.
    public static let noReaders = pattern(.noReaders)
    /// Matches any ``Code/unknownReader`` error.
    public static let unknownReader = pattern(.unknownReader)
    /// Matches any ``Code/cancelled`` error.
    public static let cancelled = pattern(.cancelled)
    /// Matches any ``Code/readerFailed`` error.
    public static let readerFailed = pattern(.readerFailed)
}
