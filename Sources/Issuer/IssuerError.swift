public import EMV

/// An error from the issuer host's setup or storage (a key of the wrong size, an account that cannot be opened or
/// read back, a repository failure) or from its wallet-facing token service (``DigitizationService``).
///
/// Authorization declines are not errors: they are ``AuthorizationResult`` values answered in field 39. Equality
/// compares ``code`` only, so tests write `#expect(throws: IssuerError.invalidKey)`. Messages never carry a PAN,
/// track 2, PIN, PIN block or key bytes.
public struct IssuerError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidKey
            case invalidPAN
            case invalidPIN
            case duplicateAccount
            case unreadableAccount
            case storageFailed
            case unknownToken
            case noTokenRange
            case accountNotEligible
            case expiryMismatch
            case unknownEligibility
            case eligibilityExpired
            case termsNotAccepted
            case unknownDigitization
            case digitizationVoid
            case incorrectCode
            case codeTriesExceeded
            case codeExpired
            case codeDeliveryFailed
            case tokenNotActive
            case invalidRequest
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// A key has the wrong length for its use (the message names the key, never its bytes).
        public static let invalidKey = Code(.invalidKey)
        /// A PAN is not 12 to 19 digits with a valid check digit.
        public static let invalidPAN = Code(.invalidPAN)
        /// A PIN is not 4 to 12 digits.
        public static let invalidPIN = Code(.invalidPIN)
        /// An account with the same keyed PAN hash already exists.
        public static let duplicateAccount = Code(.duplicateAccount)
        /// An account's encrypted PAN does not open under the data key (wrong key, or tampered storage).
        public static let unreadableAccount = Code(.unreadableAccount)
        /// The repository could not read or write.
        public static let storageFailed = Code(.storageFailed)
        /// The token vault has no such token (or no active account to tokenize, or the token is deleted).
        public static let unknownToken = Code(.unknownToken)
        /// No token BIN range, or no issuer master keys for it, covers the card.
        public static let noTokenRange = Code(.noTokenRange)
        /// No active card account has this PAN: it cannot be digitized.
        public static let accountNotEligible = Code(.accountNotEligible)
        /// The expiry date given for a card is not the account's.
        public static let expiryMismatch = Code(.expiryMismatch)
        /// No eligibility answer has this id.
        public static let unknownEligibility = Code(.unknownEligibility)
        /// The eligibility answer is past its validity: check eligibility again.
        public static let eligibilityExpired = Code(.eligibilityExpired)
        /// The terms and conditions accepted are not the ones the eligibility answer offered.
        public static let termsNotAccepted = Code(.termsNotAccepted)
        /// No digitization has this id.
        public static let unknownDigitization = Code(.unknownDigitization)
        /// The digitization is no longer pending: voided after too many wrong codes, or already completed.
        public static let digitizationVoid = Code(.digitizationVoid)
        /// The one-time code is wrong; tries remain.
        public static let incorrectCode = Code(.incorrectCode)
        /// The one-time code was wrong once too often: the digitization is now void.
        public static let codeTriesExceeded = Code(.codeTriesExceeded)
        /// The one-time code is past its validity (five minutes): the digitization is void.
        public static let codeExpired = Code(.codeExpired)
        /// The one-time code could not be sent.
        public static let codeDeliveryFailed = Code(.codeDeliveryFailed)
        /// The token is suspended or deleted: no payment keys for it.
        public static let tokenNotActive = Code(.tokenNotActive)
        /// A request's value is out of range (a key count, an empty id).
        public static let invalidRequest = Code(.invalidRequest)

        /// The code's name, as in `IssuerError.Code.invalidKey`.
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
    public init(_ code: Code, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> IssuerError {
        IssuerError(code, "any \(code) error")
    }

    /// Matches any ``Code/invalidKey`` error.
    public static let invalidKey = pattern(.invalidKey)
    /// Matches any ``Code/invalidPAN`` error.
    public static let invalidPAN = pattern(.invalidPAN)
    /// Matches any ``Code/invalidPIN`` error.
    public static let invalidPIN = pattern(.invalidPIN)
    /// Matches any ``Code/duplicateAccount`` error.
    public static let duplicateAccount = pattern(.duplicateAccount)
    /// Matches any ``Code/unreadableAccount`` error.
    public static let unreadableAccount = pattern(.unreadableAccount)
    /// Matches any ``Code/storageFailed`` error.
    public static let storageFailed = pattern(.storageFailed)
    /// Matches any ``Code/unknownToken`` error.
    public static let unknownToken = pattern(.unknownToken)
    /// Matches any ``Code/noTokenRange`` error.
    public static let noTokenRange = pattern(.noTokenRange)
    /// Matches any ``Code/accountNotEligible`` error.
    public static let accountNotEligible = pattern(.accountNotEligible)
    /// Matches any ``Code/expiryMismatch`` error.
    public static let expiryMismatch = pattern(.expiryMismatch)
    /// Matches any ``Code/unknownEligibility`` error.
    public static let unknownEligibility = pattern(.unknownEligibility)
    /// Matches any ``Code/eligibilityExpired`` error.
    public static let eligibilityExpired = pattern(.eligibilityExpired)
    /// Matches any ``Code/termsNotAccepted`` error.
    public static let termsNotAccepted = pattern(.termsNotAccepted)
    /// Matches any ``Code/unknownDigitization`` error.
    public static let unknownDigitization = pattern(.unknownDigitization)
    /// Matches any ``Code/digitizationVoid`` error.
    public static let digitizationVoid = pattern(.digitizationVoid)
    /// Matches any ``Code/incorrectCode`` error.
    public static let incorrectCode = pattern(.incorrectCode)
    /// Matches any ``Code/codeTriesExceeded`` error.
    public static let codeTriesExceeded = pattern(.codeTriesExceeded)
    /// Matches any ``Code/codeExpired`` error.
    public static let codeExpired = pattern(.codeExpired)
    /// Matches any ``Code/codeDeliveryFailed`` error.
    public static let codeDeliveryFailed = pattern(.codeDeliveryFailed)
    /// Matches any ``Code/tokenNotActive`` error.
    public static let tokenNotActive = pattern(.tokenNotActive)
    /// Matches any ``Code/invalidRequest`` error.
    public static let invalidRequest = pattern(.invalidRequest)
}
