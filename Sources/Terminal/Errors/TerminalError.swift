public import EMV

/// An error of the terminal facade itself: its configuration, devices, connection and one-operation-at-a-time rule.
///
/// What the reader underneath reports passes through unchanged with Apple's names (``TapToPay/PaymentCardReaderError``,
/// ``TapToPay/PaymentCardReaderSession/ReadError``), and what the merchant's server reports with its own
/// (``GatewayAPI/GatewayAPIError`` for ``GatewayMerchantBackend``). Equality compares the code, so tests write
/// `#expect(throws: TerminalError.busy)`. Messages never carry tokens or card data.
public struct TerminalError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, CaseIterable {
            case noReaderTypes, tapToPayUnavailable, notConfigured, readerTypeNotConfigured, deviceNotFound
            case displayNameRequiresReconnect, notConnected, busy, invalidAmount
            case paymentFailed
        }

        fileprivate let base: Base

        fileprivate init(_ base: Base) { self.base = base }

        /// `configureReaderTypes(_:)` was given no reader type.
        public static let noReaderTypes = Code(.noReaderTypes)
        /// Tap to Pay was asked for on a device that cannot read cards (no contactless interface).
        public static let tapToPayUnavailable = Code(.tapToPayUnavailable)
        /// No reader types are configured yet: call `configureReaderTypes(_:)` first.
        public static let notConfigured = Code(.notConfigured)
        /// The device's reader type is not among the configured ones.
        public static let readerTypeNotConfigured = Code(.readerTypeNotConfigured)
        /// No such device (for an external reader: PC/SC does not list it, or PC/SC is not available).
        public static let deviceNotFound = Code(.deviceNotFound)
        /// The display name cannot change while connected: disconnect, change it, connect again.
        public static let displayNameRequiresReconnect = Code(.displayNameRequiresReconnect)
        /// No device is connected.
        public static let notConnected = Code(.notConnected)
        /// Another operation (connect, sale, refund, verification, reconnect) is in progress.
        public static let busy = Code(.busy)
        /// The amount is not a positive amount of the currency (or the currency is not ISO 4217).
        public static let invalidAmount = Code(.invalidAmount)
        /// The merchant's server could not complete the payment (the issuer did not answer, or it was voided);
        /// not a decline.
        public static let paymentFailed = Code(.paymentFailed)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code's name, e.g. `busy`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of tokens and card data.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(code: Code, message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> TerminalError {
        TerminalError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/noReaderTypes`` error.
    public static let noReaderTypes = pattern(.noReaderTypes)
    /// Matches any ``Code/tapToPayUnavailable`` error.
    public static let tapToPayUnavailable = pattern(.tapToPayUnavailable)
    /// Matches any ``Code/notConfigured`` error.
    public static let notConfigured = pattern(.notConfigured)
    /// Matches any ``Code/readerTypeNotConfigured`` error.
    public static let readerTypeNotConfigured = pattern(.readerTypeNotConfigured)
    /// Matches any ``Code/deviceNotFound`` error.
    public static let deviceNotFound = pattern(.deviceNotFound)
    /// Matches any ``Code/displayNameRequiresReconnect`` error.
    public static let displayNameRequiresReconnect = pattern(.displayNameRequiresReconnect)
    /// Matches any ``Code/notConnected`` error.
    public static let notConnected = pattern(.notConnected)
    /// Matches any ``Code/busy`` error.
    public static let busy = pattern(.busy)
    /// Matches any ``Code/invalidAmount`` error.
    public static let invalidAmount = pattern(.invalidAmount)
    /// Matches any ``Code/paymentFailed`` error.
    public static let paymentFailed = pattern(.paymentFailed)
}
