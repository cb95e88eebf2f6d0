public import EMV

/// An error that ends a ``ContactlessPaymentSession``: every case of Thales's `ContactlessPaymentSession.Error`, plus
/// `sessionInProgress` (Thales's name in its remote payment session) for a second session while one runs.
///
/// Equality compares the code, so code written against Thales's SDK reads the same:
/// `#expect(throws: ContactlessPaymentSessionError.noPaymentKeys)`. Messages never carry card data or keys.
public struct ContactlessPaymentSessionError: CodedError {
    /// What went wrong: one of Thales's case names.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, CaseIterable {
            case cancelled, maxSessionDurationReached, nfcPermissionNotAccepted, systemEligibilityFailed
            case keychainError, noDefaultCard, noPaymentKeys, apduFailure, transmissionError, sessionInvalidated
            case unknown, deviceEnvironmentUnsafe, setDefaultCardFailure, invalidDigitalCardID, authenticationExpired
            case posNotSupported, cardNotSupported, cardNotActive, authenticationKeyInvalidated, biometricNotEnrolled
            case authenticationFailed, sessionInProgress
        }

        fileprivate let base: Base

        fileprivate init(_ base: Base) { self.base = base }

        /// The user or the app cancelled: ``ContactlessPaymentSession/cancel()`` or ``Authentication/cancel()``.
        public static let cancelled = Code(.cancelled)
        /// Emulation ran for the session's maximum (60 s) without a completed transaction.
        public static let maxSessionDurationReached = Code(.maxSessionDurationReached)
        /// The user has not allowed the app to use NFC.
        public static let nfcPermissionNotAccepted = Code(.nfcPermissionNotAccepted)
        /// The device is not eligible for contactless payments (region, hardware, OS).
        public static let systemEligibilityFailed = Code(.systemEligibilityFailed)
        /// The wallet's encrypted store could not be read or written.
        public static let keychainError = Code(.keychainError)
        /// No card was named and the wallet has no default card.
        public static let noDefaultCard = Code(.noDefaultCard)
        /// The card has no usable payment key left: replenish it (``ReplenishmentService``).
        public static let noPaymentKeys = Code(.noPaymentKeys)
        /// The card refused a transaction command of the reader (a status word other than 9000).
        public static let apduFailure = Code(.apduFailure)
        /// The link to the reader broke in the middle of a transaction: start the payment again.
        public static let transmissionError = Code(.transmissionError)
        /// The system ended the card session (the app went to the background).
        public static let sessionInvalidated = Code(.sessionInvalidated)
        /// Anything else, e.g. emulation asked for before authentication completed.
        public static let unknown = Code(.unknown)
        /// The device failed its integrity check (jailbreak, debugger, hooking).
        public static let deviceEnvironmentUnsafe = Code(.deviceEnvironmentUnsafe)
        /// The card chosen for the payment could not be made the default card.
        public static let setDefaultCardFailure = Code(.setDefaultCardFailure)
        /// No digital card has the given identifier.
        public static let invalidDigitalCardID = Code(.invalidDigitalCardID)
        /// The cardholder's authentication is older than its validity when the reader starts the transaction.
        public static let authenticationExpired = Code(.authenticationExpired)
        /// The reader does not accept the card's application (it read the directory and selected nothing).
        public static let posNotSupported = Code(.posNotSupported)
        /// The card cannot do what the payment asks: a cash or cash-back transaction, or wallet transaction data on a
        /// card other than Mastercard.
        public static let cardNotSupported = Code(.cardNotSupported)
        /// The card is suspended, or not active at the issuer.
        public static let cardNotActive = Code(.cardNotActive)
        /// The device's authentication key was invalidated (passcode turned off or reset): enrol again.
        public static let authenticationKeyInvalidated = Code(.authenticationKeyInvalidated)
        /// No biometric is enrolled on the device.
        public static let biometricNotEnrolled = Code(.biometricNotEnrolled)
        /// The cardholder failed the biometric or passcode check.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// Another contactless payment session of this wallet is running; only one at a time.
        public static let sessionInProgress = Code(.sessionInProgress)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// Thales's case name, e.g. `noPaymentKeys`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data and keys.
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

    init(_ code: Code, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.init(code: code, message: message, file: file, line: line)
    }

    /// `ContactlessPaymentSessionError.noPaymentKeys: …`.
    public var description: String { "ContactlessPaymentSessionError.\(code): \(message)" }

    private static func pattern(_ code: Code) -> ContactlessPaymentSessionError {
        ContactlessPaymentSessionError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/cancelled`` error.
    public static let cancelled = pattern(.cancelled)
    /// Matches any ``Code/maxSessionDurationReached`` error.
    public static let maxSessionDurationReached = pattern(.maxSessionDurationReached)
    /// Matches any ``Code/nfcPermissionNotAccepted`` error.
    public static let nfcPermissionNotAccepted = pattern(.nfcPermissionNotAccepted)
    /// Matches any ``Code/systemEligibilityFailed`` error.
    public static let systemEligibilityFailed = pattern(.systemEligibilityFailed)
    /// Matches any ``Code/keychainError`` error.
    public static let keychainError = pattern(.keychainError)
    /// Matches any ``Code/noDefaultCard`` error.
    public static let noDefaultCard = pattern(.noDefaultCard)
    /// Matches any ``Code/noPaymentKeys`` error.
    public static let noPaymentKeys = pattern(.noPaymentKeys)
    /// Matches any ``Code/apduFailure`` error.
    public static let apduFailure = pattern(.apduFailure)
    /// Matches any ``Code/transmissionError`` error.
    public static let transmissionError = pattern(.transmissionError)
    /// Matches any ``Code/sessionInvalidated`` error.
    public static let sessionInvalidated = pattern(.sessionInvalidated)
    /// Matches any ``Code/unknown`` error.
    public static let unknown = pattern(.unknown)
    /// Matches any ``Code/deviceEnvironmentUnsafe`` error.
    public static let deviceEnvironmentUnsafe = pattern(.deviceEnvironmentUnsafe)
    /// Matches any ``Code/setDefaultCardFailure`` error.
    public static let setDefaultCardFailure = pattern(.setDefaultCardFailure)
    /// Matches any ``Code/invalidDigitalCardID`` error.
    public static let invalidDigitalCardID = pattern(.invalidDigitalCardID)
    /// Matches any ``Code/authenticationExpired`` error.
    public static let authenticationExpired = pattern(.authenticationExpired)
    /// Matches any ``Code/posNotSupported`` error.
    public static let posNotSupported = pattern(.posNotSupported)
    /// Matches any ``Code/cardNotSupported`` error.
    public static let cardNotSupported = pattern(.cardNotSupported)
    /// Matches any ``Code/cardNotActive`` error.
    public static let cardNotActive = pattern(.cardNotActive)
    /// Matches any ``Code/authenticationKeyInvalidated`` error.
    public static let authenticationKeyInvalidated = pattern(.authenticationKeyInvalidated)
    /// Matches any ``Code/biometricNotEnrolled`` error.
    public static let biometricNotEnrolled = pattern(.biometricNotEnrolled)
    /// Matches any ``Code/authenticationFailed`` error.
    public static let authenticationFailed = pattern(.authenticationFailed)
    /// Matches any ``Code/sessionInProgress`` error.
    public static let sessionInProgress = pattern(.sessionInProgress)
}
