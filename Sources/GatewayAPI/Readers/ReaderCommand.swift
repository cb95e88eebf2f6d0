public import Foundation

/// `POST /v1/readers/{readerId}/commands`: what a server-driven reader is asked to do next.
///
/// A point-of-sale app (or the merchant's server) sends it; the reader (`tap reader`) picks it up, reads the card
/// with the TapToPay SDK and hands the sealed read to the gateway, which authorizes it as the command says. One
/// command runs at a time per reader.
public struct CreateReaderCommandRequest: Sendable, Hashable, Codable {
    /// What to do.
    public var type: ReaderCommand.Kind
    /// A payment's or refund's amount in minor units; none for a verification.
    public var amount: Int?
    /// ISO 4217 alphabetic code.
    public var currency: String
    /// A payment's capture: automatic (default) or manual.
    public var captureMethod: CaptureMethod?
    /// A verification's reason (``VerificationReason/lookUp`` to find a card's payments).
    public var verificationReason: VerificationReason?
    /// The merchant's loyalty pass types (Apple VAS pass type identifiers, one to four): what a loyalty read asks
    /// the customer's phone for, or a payment reads in the same tap before the card.
    public var loyaltyPasses: [String]?

    /// Creates a request.
    public init(
        type: ReaderCommand.Kind, amount: Int? = nil, currency: String, captureMethod: CaptureMethod? = nil,
        verificationReason: VerificationReason? = nil, loyaltyPasses: [String]? = nil
    ) {
        self.type = type
        self.amount = amount
        self.currency = currency
        self.captureMethod = captureMethod
        self.verificationReason = verificationReason
        self.loyaltyPasses = loyaltyPasses
    }
}

/// A command of a server-driven reader, and once it ended, its result.
public struct ReaderCommand: Sendable, Hashable, Codable {
    /// What a reader can be asked to do.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Read a card and authorize a payment of the amount.
        case payment
        /// Read a card and refund the amount to it (a refund without the original payment).
        case refund
        /// Read a card without an amount and verify it (the issuer authorizes zero): to look up its payments, open a
        /// tab or save the card.
        case verification
        /// Read the customer's loyalty pass only (Apple VAS): nothing is paid.
        case loyalty
    }

    /// Where a command is.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Sent, not yet picked up by the reader.
        case pending
        /// The reader runs it (waiting for a card, reading, authorizing).
        case inProgress
        /// Ended with an outcome from the issuer: ``ReaderCommandResult/payment`` or ``ReaderCommandResult/refund``
        /// (an approved or a declined payment).
        case completed
        /// Ended without one: ``ReaderCommandResult/failure`` says why (the read failed, the reader disconnected).
        case failed
        /// Canceled before the card data reached the gateway.
        case canceled

        /// Whether the command has ended.
        public var isFinal: Bool { self == .completed || self == .failed || self == .canceled }
    }

    /// `rcmd_…`.
    public var id: String
    /// The reader (its device id).
    public var readerId: String
    /// What to do.
    public var type: Kind
    /// The amount in minor units (payments and refunds).
    public var amount: Int?
    /// ISO 4217 alphabetic code.
    public var currency: String
    /// A payment's capture method.
    public var captureMethod: CaptureMethod?
    /// A verification's reason.
    public var verificationReason: VerificationReason?
    /// The loyalty pass types asked for.
    public var loyaltyPasses: [String]?
    /// Where it is.
    public var status: Status
    /// When it was sent.
    public var createdAt: Date
    /// Its result, once ended.
    public var result: ReaderCommandResult?

    /// Creates a command.
    public init(
        id: String, readerId: String, request: CreateReaderCommandRequest, status: Status = .pending,
        createdAt: Date, result: ReaderCommandResult? = nil
    ) {
        self.id = id
        self.readerId = readerId
        type = request.type
        amount = request.amount
        currency = request.currency
        captureMethod = request.captureMethod
        verificationReason = request.verificationReason
        loyaltyPasses = request.loyaltyPasses
        self.status = status
        self.createdAt = createdAt
        self.result = result
    }
}

/// How a reader's command ended.
public struct ReaderCommandResult: Sendable, Hashable, Codable {
    /// Why a command ended without an issuer's outcome.
    public struct Failure: Sendable, Hashable, Codable {
        /// A stable code: the SDK's read error (`cardReadFailed`, `cardNotSupported`, `readCancelled`,
        /// `pinCancelled`, …), the gateway's problem code (`cardDataExpired`, …), or `readerDisconnected`.
        public var code: String
        /// What happened, in plain words for the merchant.
        public var message: String

        /// Creates a failure.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The payment (approved, declined or failed at the issuer) of a payment or verification command.
    public var payment: Payment?
    /// The refund of a refund command.
    public var refund: Refund?
    /// The loyalty pass the customer's phone gave (a loyalty read, or a payment that asked for one).
    public var loyalty: ReaderLoyaltyResult?
    /// Why it failed, for a failed or canceled command.
    public var failure: Failure?

    /// Creates a result.
    public init(
        payment: Payment? = nil, refund: Refund? = nil, loyalty: ReaderLoyaltyResult? = nil, failure: Failure? = nil
    ) {
        self.payment = payment
        self.refund = refund
        self.loyalty = loyalty
        self.failure = failure
    }
}

/// What the customer's phone answered a loyalty read (Apple VAS) for one of the merchant's pass types.
public struct ReaderLoyaltyResult: Sendable, Hashable, Codable {
    /// The pass type that answered (or the first asked for, when none did).
    public var passTypeIdentifier: String
    /// The phone's answer: `success`, `dataNotFound` (no such pass), `userInterventionRequired`, … (the VAS status).
    public var status: String
    /// The pass's message (the member id), when the reader holds the merchant's key and opened the cryptogram.
    public var memberId: String?

    /// Creates a result.
    public init(passTypeIdentifier: String, status: String, memberId: String? = nil) {
        self.passTypeIdentifier = passTypeIdentifier
        self.status = status
        self.memberId = memberId
    }
}
