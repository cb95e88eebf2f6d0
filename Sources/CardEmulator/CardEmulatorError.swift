public import EMV

/// An error from personalising or managing an emulated card: a profile that cannot make a card, or keys the card
/// cannot take.
///
/// The card applet itself never throws: it answers status words (see ``CardStatus``). Equality compares ``code``
/// only, so tests write `#expect(throws: CardEmulatorError.invalidProfile)`. Messages name fields and tags, never
/// PANs, tracks, PINs or keys.
public struct CardEmulatorError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidProfile
            case unsupportedCryptogramVersion
            case missingData
            case keyDerivationFailed
            case offlineDataAuthenticationFailed
            case staleKeys
            case invalidKey
            case invalidWalletTransactionData
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// A profile field is malformed (wrong length, not digits, inconsistent with another field).
        public static let invalidProfile = Code(.invalidProfile)
        /// The cryptogram version is not one whose session keys come from the ATC alone.
        public static let unsupportedCryptogramVersion = Code(.unsupportedCryptogramVersion)
        /// A record names a tag the profile has no value for, or a needed field is absent.
        public static let missingData = Code(.missingData)
        /// Deriving the card's keys failed (bad issuer master key length).
        public static let keyDerivationFailed = Code(.keyDerivationFailed)
        /// Certifying or checking offline data authentication data failed.
        public static let offlineDataAuthenticationFailed = Code(.offlineDataAuthenticationFailed)
        /// Replenishment keys whose ATCs are not above every ATC the card has used or holds.
        public static let staleKeys = Code(.staleKeys)
        /// A limited-use key is not a 16-byte session key, or two keys share an ATC.
        public static let invalidKey = Code(.invalidKey)
        /// Wallet transaction data longer than 14 bytes, or set on a card that cannot carry it (not Mastercard).
        public static let invalidWalletTransactionData = Code(.invalidWalletTransactionData)

        /// The code's name, as in `CardEmulatorError.Code.invalidProfile`.
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

    private static func pattern(_ code: Code) -> CardEmulatorError {
        CardEmulatorError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/invalidProfile`` error.
    public static let invalidProfile = pattern(.invalidProfile)
    /// Matches any ``Code/unsupportedCryptogramVersion`` error.
    public static let unsupportedCryptogramVersion = pattern(.unsupportedCryptogramVersion)
    /// Matches any ``Code/missingData`` error.
    public static let missingData = pattern(.missingData)
    /// Matches any ``Code/keyDerivationFailed`` error.
    public static let keyDerivationFailed = pattern(.keyDerivationFailed)
    /// Matches any ``Code/offlineDataAuthenticationFailed`` error.
    public static let offlineDataAuthenticationFailed = pattern(.offlineDataAuthenticationFailed)
    /// Matches any ``Code/staleKeys`` error.
    public static let staleKeys = pattern(.staleKeys)
    /// Matches any ``Code/invalidKey`` error.
    public static let invalidKey = pattern(.invalidKey)
    /// Matches any ``Code/invalidWalletTransactionData`` error.
    public static let invalidWalletTransactionData = pattern(.invalidWalletTransactionData)
}
