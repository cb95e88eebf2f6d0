public import EMV
public import Foundation

/// An error of the reader's set-up: linking the merchant's account, preparing the device, the app's lifecycle.
///
/// The codes carry the names of ProximityReader's `PaymentCardReaderError` cases, and equality compares the code, so
/// code written against Apple's framework reads the same: `catch PaymentCardReaderError.accountNotLinked`, or in a
/// test `#expect(throws: PaymentCardReaderError.merchantBlocked)`. Messages never carry tokens or card data.
public struct PaymentCardReaderError: CodedError {
    /// What went wrong: one of Apple's case names.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, CaseIterable {
            case accountAlreadyLinked, accountLinkingCheckFailed, accountLinkingFailed, accountNotLinked
            case backgroundRequestNotAllowed, emptyReaderToken, invalidReaderToken, merchantBlocked, networkError
            case notReady, prepareFailed, readerBusy, tokenExpired, unsupported
        }

        fileprivate let base: Base

        fileprivate init(_ base: Base) { self.base = base }

        /// The merchant already accepted the Terms and Conditions (relinking takes `relinkAccount(using:)`).
        public static let accountAlreadyLinked = Code(.accountAlreadyLinked)
        /// The gateway could not say whether the merchant's account is linked.
        public static let accountLinkingCheckFailed = Code(.accountLinkingCheckFailed)
        /// The account could not be linked or relinked: the token's user is not a merchant admin, or relinking is
        /// not allowed by the token.
        public static let accountLinkingFailed = Code(.accountLinkingFailed)
        /// The merchant has not accepted the Terms and Conditions: call `linkAccount(using:)` first.
        public static let accountNotLinked = Code(.accountNotLinked)
        /// The app asked for a prepare while in the background.
        public static let backgroundRequestNotAllowed = Code(.backgroundRequestNotAllowed)
        /// The reader token is empty.
        public static let emptyReaderToken = Code(.emptyReaderToken)
        /// The PSP did not accept the reader token.
        public static let invalidReaderToken = Code(.invalidReaderToken)
        /// The device used three other merchants in the last 24 hours (``PaymentCardReaderError/clearsAt`` says
        /// when this one may use it).
        public static let merchantBlocked = Code(.merchantBlocked)
        /// The PSP could not be reached.
        public static let networkError = Code(.networkError)
        /// The reader session is not ready (it ended when the app went to the background): prepare again.
        public static let notReady = Code(.notReady)
        /// The device could not be prepared.
        public static let prepareFailed = Code(.prepareFailed)
        /// The reader is busy: a prepare or a read is in progress.
        public static let readerBusy = Code(.readerBusy)
        /// The reader token expired: ask the PSP for a new one.
        public static let tokenExpired = Code(.tokenExpired)
        /// No contactless interface is configured on this device.
        public static let unsupported = Code(.unsupported)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// Apple's case name, e.g. `accountNotLinked`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of tokens and card data.
    public let message: String
    /// For ``Code/merchantBlocked``: when the device may use this merchant.
    public let clearsAt: Date?
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(code: Code, message: String, clearsAt: Date? = nil, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.clearsAt = clearsAt
        self.file = file
        self.line = line
    }

    /// Apple's name for the error, e.g. `accountNotLinked`.
    public var errorName: String { code.description }
    /// `PaymentCardReaderError.accountNotLinked: …`.
    public var errorDescription: String { "PaymentCardReaderError.\(code): \(message)" }
    /// The same as ``errorDescription``.
    public var description: String { errorDescription }

    private static func pattern(_ code: Code) -> PaymentCardReaderError {
        PaymentCardReaderError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/accountAlreadyLinked`` error.
    public static let accountAlreadyLinked = pattern(.accountAlreadyLinked)
    /// Matches any ``Code/accountLinkingCheckFailed`` error.
    public static let accountLinkingCheckFailed = pattern(.accountLinkingCheckFailed)
    /// Matches any ``Code/accountLinkingFailed`` error.
    public static let accountLinkingFailed = pattern(.accountLinkingFailed)
    /// Matches any ``Code/accountNotLinked`` error.
    public static let accountNotLinked = pattern(.accountNotLinked)
    /// Matches any ``Code/backgroundRequestNotAllowed`` error.
    public static let backgroundRequestNotAllowed = pattern(.backgroundRequestNotAllowed)
    /// Matches any ``Code/emptyReaderToken`` error.
    public static let emptyReaderToken = pattern(.emptyReaderToken)
    /// Matches any ``Code/invalidReaderToken`` error.
    public static let invalidReaderToken = pattern(.invalidReaderToken)
    /// Matches any ``Code/merchantBlocked`` error.
    public static let merchantBlocked = pattern(.merchantBlocked)
    /// Matches any ``Code/networkError`` error.
    public static let networkError = pattern(.networkError)
    /// Matches any ``Code/notReady`` error.
    public static let notReady = pattern(.notReady)
    /// Matches any ``Code/prepareFailed`` error.
    public static let prepareFailed = pattern(.prepareFailed)
    /// Matches any ``Code/readerBusy`` error.
    public static let readerBusy = pattern(.readerBusy)
    /// Matches any ``Code/tokenExpired`` error.
    public static let tokenExpired = pattern(.tokenExpired)
    /// Matches any ``Code/unsupported`` error.
    public static let unsupported = pattern(.unsupported)
}
