public import EMV

/// An error of the wallet's card services: digitization, card management, replenishment, the encrypted store.
///
/// Equality compares the code: `#expect(throws: WalletError.identityVerificationFailed)`. Messages name what failed,
/// never a PAN, DPAN, key or one-time code.
public struct WalletError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, CaseIterable {
            case notEligible, eligibilityExpired, identityVerificationFailed, issuerError, invalidDigitalCardID
            case keychainError, cardNotActive, cardNotSupported, invalidWalletTransactionData, replenishmentFailed
        }

        fileprivate let base: Base

        fileprivate init(_ base: Base) { self.base = base }

        /// The issuer does not digitize this card (unknown, blocked or expired account, no token range).
        public static let notEligible = Code(.notEligible)
        /// The eligibility answer (or its Terms and Conditions) is no longer valid: check eligibility again.
        public static let eligibilityExpired = Code(.eligibilityExpired)
        /// The one-time code was wrong, expired, or used too many times.
        public static let identityVerificationFailed = Code(.identityVerificationFailed)
        /// The issuer could not be reached or refused for another reason.
        public static let issuerError = Code(.issuerError)
        /// No digital card has this identifier.
        public static let invalidDigitalCardID = Code(.invalidDigitalCardID)
        /// The wallet's encrypted store could not be read or written (Thales: `keychainError`).
        public static let keychainError = Code(.keychainError)
        /// The card is deleted at the issuer or cannot be resumed.
        public static let cardNotActive = Code(.cardNotActive)
        /// The card does not support what was asked (wallet transaction data is Mastercard-only).
        public static let cardNotSupported = Code(.cardNotSupported)
        /// Wallet transaction data longer than 14 bytes.
        public static let invalidWalletTransactionData = Code(.invalidWalletTransactionData)
        /// The issuer's new keys could not be added (stale ATCs) or fetched.
        public static let replenishmentFailed = Code(.replenishmentFailed)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code's name, e.g. `notEligible`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data, keys and codes.
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

    /// `WalletError.notEligible: …`.
    public var description: String { "WalletError.\(code): \(message)" }

    private static func pattern(_ code: Code) -> WalletError { WalletError(code: code, message: "any \(code) error") }

    /// Matches any ``Code/notEligible`` error.
    public static let notEligible = pattern(.notEligible)
    /// Matches any ``Code/eligibilityExpired`` error.
    public static let eligibilityExpired = pattern(.eligibilityExpired)
    /// Matches any ``Code/identityVerificationFailed`` error.
    public static let identityVerificationFailed = pattern(.identityVerificationFailed)
    /// Matches any ``Code/issuerError`` error.
    public static let issuerError = pattern(.issuerError)
    /// Matches any ``Code/invalidDigitalCardID`` error.
    public static let invalidDigitalCardID = pattern(.invalidDigitalCardID)
    /// Matches any ``Code/keychainError`` error.
    public static let keychainError = pattern(.keychainError)
    /// Matches any ``Code/cardNotActive`` error.
    public static let cardNotActive = pattern(.cardNotActive)
    /// Matches any ``Code/cardNotSupported`` error.
    public static let cardNotSupported = pattern(.cardNotSupported)
    /// Matches any ``Code/invalidWalletTransactionData`` error.
    public static let invalidWalletTransactionData = pattern(.invalidWalletTransactionData)
    /// Matches any ``Code/replenishmentFailed`` error.
    public static let replenishmentFailed = pattern(.replenishmentFailed)
}
