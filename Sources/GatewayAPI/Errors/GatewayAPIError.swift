public import EMV
public import Foundation

/// An error the gateway's API reports to a caller, with a stable code the SDKs map to their own errors (the
/// ProximityReader-shaped SDK's `merchantBlocked`, `accountNotLinked`, …).
///
/// On the wire it is a ``Problem`` (RFC 9457 JSON) whose `code` is ``Code/description`` and whose HTTP status is
/// ``Code/httpStatus``.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: GatewayAPIError.cardDataExpired)`. Messages
/// never carry card data, plaintext, ciphertext or key bytes: they name what was wrong and nothing else. The server
/// maps codes to HTTP problems at its edge.
public struct GatewayAPIError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable, CaseIterable {
            case cardDataExpired, cardDataReplayed, cardDataInvalid, forbidden
            case unauthorized, invalidReaderToken, tokenExpired, adminRequired
            case accountNotLinked, accountAlreadyLinked, relinkNotAllowed, merchantBlocked
            case notFound, invalidRequest, amountMismatch, invalidState, amountExceedsAvailable
            case idempotencyKeyReused, idempotencyKeyInUse
            case pinNotAllowed, incorrectPIN, pinTryExceeded
            case paymentDeclined, issuerUnavailable, unavailable, internalError
            case paymentTokenInvalid, paymentTokenReplayed, paymentTokenExpired
            case payloadTooLarge, methodNotAllowed, tokenRevoked
            case readerBusy, readerOffline
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The code named `name` (a problem's `code`); nil for a name this version does not know.
        public init?(name: String) {
            guard let base = Base(rawValue: name) else { return nil }
            self.base = base
        }

        /// The HTTP status the server answers this code with.
        public var httpStatus: Int {
            switch base {
            case .invalidRequest, .amountMismatch, .cardDataInvalid, .paymentTokenInvalid: 400
            case .unauthorized, .invalidReaderToken, .tokenExpired, .tokenRevoked: 401
            case .paymentDeclined, .incorrectPIN, .pinTryExceeded: 402
            case .forbidden, .adminRequired, .accountNotLinked, .relinkNotAllowed, .merchantBlocked: 403
            case .notFound: 404
            case .methodNotAllowed: 405
            case .accountAlreadyLinked, .invalidState, .amountExceedsAvailable, .idempotencyKeyReused,
                .idempotencyKeyInUse, .cardDataReplayed, .pinNotAllowed, .paymentTokenReplayed, .readerBusy,
                .readerOffline:
                409
            case .cardDataExpired, .paymentTokenExpired: 410
            case .payloadTooLarge: 413
            case .issuerUnavailable: 504
            case .unavailable: 503
            case .internalError: 500
            }
        }

        /// The sealed card data was created more than the allowed age (60 s) before it was opened.
        public static let cardDataExpired = Code(.cardDataExpired)
        /// The sealed card data (its read id) was already opened once.
        public static let cardDataReplayed = Code(.cardDataReplayed)
        /// The sealed card data cannot be opened: unknown key id, bad encapsulated key or ciphertext, altered
        /// authenticated data, malformed payload, or a creation time too far in the future.
        public static let cardDataInvalid = Code(.cardDataInvalid)
        /// The sealed card data belongs to another merchant or device than the caller.
        public static let forbidden = Code(.forbidden)

        /// No or an unknown API key or token.
        public static let unauthorized = Code(.unauthorized)
        /// The reader token is not a token this PSP signed, or is malformed.
        public static let invalidReaderToken = Code(.invalidReaderToken)
        /// The reader token's or reader session's expiry has passed.
        public static let tokenExpired = Code(.tokenExpired)
        /// The reader token or session was revoked (its device's, its user's or all of the merchant's tokens).
        public static let tokenRevoked = Code(.tokenRevoked)
        /// Only a merchant admin may accept the Terms and Conditions.
        public static let adminRequired = Code(.adminRequired)
        /// The merchant has not accepted the Terms and Conditions.
        public static let accountNotLinked = Code(.accountNotLinked)
        /// The merchant already accepted the Terms and Conditions; relinking takes a token that allows it.
        public static let accountAlreadyLinked = Code(.accountAlreadyLinked)
        /// Relinking was asked with a token that does not allow it.
        public static let relinkNotAllowed = Code(.relinkNotAllowed)
        /// The device used three other merchant ids in the last 24 hours; the problem's `clearsAt` says when it may
        /// use this one.
        public static let merchantBlocked = Code(.merchantBlocked)
        /// No such resource for this merchant.
        public static let notFound = Code(.notFound)
        /// The request is malformed or a parameter is out of range; the detail names which.
        public static let invalidRequest = Code(.invalidRequest)
        /// The amount or currency asked differs from the one the card's cryptogram covers.
        public static let amountMismatch = Code(.amountMismatch)
        /// The payment is not in a state that allows this (capturing a declined payment, refunding an uncaptured one).
        public static let invalidState = Code(.invalidState)
        /// The amount is more than can still be captured or refunded.
        public static let amountExceedsAvailable = Code(.amountExceedsAvailable)
        /// The `Idempotency-Key` was used before with other parameters.
        public static let idempotencyKeyReused = Code(.idempotencyKeyReused)
        /// A request with this `Idempotency-Key` is still being processed.
        public static let idempotencyKeyInUse = Code(.idempotencyKeyInUse)
        /// PIN entry is not allowed for this payment: none was asked, or the 55 s after the read have passed.
        public static let pinNotAllowed = Code(.pinNotAllowed)
        /// The issuer refused the PIN; tries remain.
        public static let incorrectPIN = Code(.incorrectPIN)
        /// The issuer refused the PIN for the last allowed time.
        public static let pinTryExceeded = Code(.pinTryExceeded)
        /// The issuer declined the payment (the payment object has the reason).
        public static let paymentDeclined = Code(.paymentDeclined)
        /// The issuer did not answer in time; the authorisation was reversed.
        public static let issuerUnavailable = Code(.issuerUnavailable)
        /// The gateway cannot serve the request now (its database is unreachable); safe to retry with the same key.
        public static let unavailable = Code(.unavailable)
        /// An unexpected failure; safe to retry with the same idempotency key.
        public static let internalError = Code(.internalError)
        /// The Apple Pay token fails verification or decryption (signature, chain, markers, no registered key for
        /// its publicKeyHash, applicationData hash, payload), or carries EMV data instead of a cryptogram.
        public static let paymentTokenInvalid = Code(.paymentTokenInvalid)
        /// The Apple Pay token's transactionId was accepted before.
        public static let paymentTokenReplayed = Code(.paymentTokenReplayed)
        /// The Apple Pay token was signed outside the accepted window (5 minutes) of the gateway's clock. Not
        /// ``tokenExpired``, which is the reader token's (401).
        public static let paymentTokenExpired = Code(.paymentTokenExpired)

        /// The path is served, but not with this method; the `Allow` header lists the methods it takes.
        public static let methodNotAllowed = Code(.methodNotAllowed)
        /// The request body is larger than the gateway accepts; the detail gives the limit in bytes.
        public static let payloadTooLarge = Code(.payloadTooLarge)

        /// The reader is running another command; one runs at a time (cancel it first).
        public static let readerBusy = Code(.readerBusy)
        /// The reader is not connected to the gateway: it has not asked for a command within its timeout.
        public static let readerOffline = Code(.readerOffline)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code's name, as in `GatewayAPIError.Code.cardDataExpired`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data and key material.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// When a ``Code/merchantBlocked`` device may use the merchant id; nil for other codes.
    public let clearsAt: Date?

    /// Creates an error.
    public init(code: Code, message: String, clearsAt: Date? = nil, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.clearsAt = clearsAt
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> GatewayAPIError {
        GatewayAPIError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/cardDataExpired`` error.
    public static let cardDataExpired = pattern(.cardDataExpired)
    /// Matches any ``Code/cardDataReplayed`` error.
    public static let cardDataReplayed = pattern(.cardDataReplayed)
    /// Matches any ``Code/cardDataInvalid`` error.
    public static let cardDataInvalid = pattern(.cardDataInvalid)
    /// Matches any ``Code/forbidden`` error.
    public static let forbidden = pattern(.forbidden)
    /// Matches any ``Code/unauthorized`` error.
    public static let unauthorized = pattern(.unauthorized)
    /// Matches any ``Code/invalidReaderToken`` error.
    public static let invalidReaderToken = pattern(.invalidReaderToken)
    /// Matches any ``Code/tokenExpired`` error.
    public static let tokenExpired = pattern(.tokenExpired)
    /// Matches any ``Code/adminRequired`` error.
    public static let adminRequired = pattern(.adminRequired)
    /// Matches any ``Code/accountNotLinked`` error.
    public static let accountNotLinked = pattern(.accountNotLinked)
    /// Matches any ``Code/accountAlreadyLinked`` error.
    public static let accountAlreadyLinked = pattern(.accountAlreadyLinked)
    /// Matches any ``Code/relinkNotAllowed`` error.
    public static let relinkNotAllowed = pattern(.relinkNotAllowed)
    /// Matches any ``Code/merchantBlocked`` error.
    public static let merchantBlocked = pattern(.merchantBlocked)
    /// Matches any ``Code/notFound`` error.
    public static let notFound = pattern(.notFound)
    /// Matches any ``Code/invalidRequest`` error.
    public static let invalidRequest = pattern(.invalidRequest)
    /// Matches any ``Code/amountMismatch`` error.
    public static let amountMismatch = pattern(.amountMismatch)
    /// Matches any ``Code/invalidState`` error.
    public static let invalidState = pattern(.invalidState)
    /// Matches any ``Code/amountExceedsAvailable`` error.
    public static let amountExceedsAvailable = pattern(.amountExceedsAvailable)
    /// Matches any ``Code/idempotencyKeyReused`` error.
    public static let idempotencyKeyReused = pattern(.idempotencyKeyReused)
    /// Matches any ``Code/idempotencyKeyInUse`` error.
    public static let idempotencyKeyInUse = pattern(.idempotencyKeyInUse)
    /// Matches any ``Code/pinNotAllowed`` error.
    public static let pinNotAllowed = pattern(.pinNotAllowed)
    /// Matches any ``Code/incorrectPIN`` error.
    public static let incorrectPIN = pattern(.incorrectPIN)
    /// Matches any ``Code/pinTryExceeded`` error.
    public static let pinTryExceeded = pattern(.pinTryExceeded)
    /// Matches any ``Code/paymentDeclined`` error.
    public static let paymentDeclined = pattern(.paymentDeclined)
    /// Matches any ``Code/issuerUnavailable`` error.
    public static let issuerUnavailable = pattern(.issuerUnavailable)
    /// Matches any ``Code/unavailable`` error.
    public static let unavailable = pattern(.unavailable)
    /// Matches any ``Code/internalError`` error.
    public static let internalError = pattern(.internalError)
    /// Matches any ``Code/paymentTokenInvalid`` error.
    public static let paymentTokenInvalid = pattern(.paymentTokenInvalid)
    /// Matches any ``Code/paymentTokenReplayed`` error.
    public static let paymentTokenReplayed = pattern(.paymentTokenReplayed)
    /// Matches any ``Code/paymentTokenExpired`` error.
    public static let paymentTokenExpired = pattern(.paymentTokenExpired)
}
