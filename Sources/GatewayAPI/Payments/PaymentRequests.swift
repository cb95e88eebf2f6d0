public import Foundation

/// `POST /v1/payments`: authorise the card data of a read.
public struct CreatePaymentRequest: Sendable, Hashable, Codable {
    /// The read's sealed card data.
    public var cardData: SealedCardData
    /// The amount in minor units: the amount the card's cryptogram covers (0 for a verification).
    public var amount: Int
    /// ISO 4217 alphabetic code: the currency the card's cryptogram covers.
    public var currency: String
    /// Purchase (default) or verification.
    public var kind: PaymentKind?
    /// Automatic (default) or manual capture.
    public var captureMethod: CaptureMethod?
    /// For a verification: why (default ``VerificationReason/other``).
    public var verificationReason: VerificationReason?

    /// Creates a request.
    public init(
        cardData: SealedCardData, amount: Int, currency: String, kind: PaymentKind? = nil,
        captureMethod: CaptureMethod? = nil, verificationReason: VerificationReason? = nil
    ) {
        self.cardData = cardData
        self.amount = amount
        self.currency = currency
        self.kind = kind
        self.captureMethod = captureMethod
        self.verificationReason = verificationReason
    }
}

/// `POST /v1/payments/{id}/pin`: the cardholder's PIN for a payment in ``PaymentStatus/requiresPIN``.
///
/// The PIN comes in one of two forms: a reader's PIN capture as ProximityReader returns it (the read's card data
/// sealed again with the PIN block, ``cardData``), or the bare PIN block (``pinBlock``).
public struct PINSubmission: Sendable, Hashable, Codable {
    /// The payment's ``PINRequest/pinToken``.
    public var pinToken: String
    /// The PIN capture's sealed card data: the same read (its read id) with the ISO 9564 format 4 PIN block.
    public var cardData: SealedCardData?
    /// The ISO 9564 format 4 PIN block (16 bytes, hex) under the device's PIN key from prepare.
    public var pinBlock: String?

    /// A submission of a PIN capture's sealed card data.
    public init(pinToken: String, cardData: SealedCardData) {
        self.pinToken = pinToken
        self.cardData = cardData
        pinBlock = nil
    }

    /// A submission of a bare PIN block.
    public init(pinToken: String, pinBlock: String) {
        self.pinToken = pinToken
        cardData = nil
        self.pinBlock = pinBlock
    }
}

/// `POST /v1/payments/{id}/capture`.
public struct CaptureRequest: Sendable, Hashable, Codable {
    /// The amount to capture, at most the authorised amount; nil captures all of it.
    public var amount: Int?

    /// Creates a request.
    public init(amount: Int? = nil) { self.amount = amount }
}

/// `POST /v1/payments/{id}/refunds`, and `POST /v1/refunds` for a card-present refund without a payment.
public struct CreateRefundRequest: Sendable, Hashable, Codable {
    /// The amount; nil refunds what remains of the captured amount (required without a payment).
    public var amount: Int?
    /// Why, free text.
    public var reason: String?
    /// For an unreferenced refund: the sealed card data of a refund read.
    public var cardData: SealedCardData?
    /// For an unreferenced refund: its currency.
    public var currency: String?

    /// Creates a request.
    public init(amount: Int? = nil, reason: String? = nil, cardData: SealedCardData? = nil, currency: String? = nil) {
        self.amount = amount
        self.reason = reason
        self.cardData = cardData
        self.currency = currency
    }
}

/// A refund as the API shows it.
public struct Refund: Sendable, Hashable, Codable {
    /// The refund's id (`re_…`).
    public var id: String
    /// The refunded payment; nil for a card-present refund without one.
    public var paymentId: String?
    /// The amount in minor units.
    public var amount: Int
    /// ISO 4217 alphabetic code.
    public var currency: String
    /// `succeeded`.
    public var status: String
    /// Why, as given.
    public var reason: String?
    /// The card, masked (unreferenced refunds).
    public var card: PaymentCard?
    /// When it was made.
    public var createdAt: Date

    /// Creates a refund.
    public init(
        id: String, paymentId: String?, amount: Int, currency: String, status: String, reason: String?,
        card: PaymentCard?, createdAt: Date
    ) {
        self.id = id
        self.paymentId = paymentId
        self.amount = amount
        self.currency = currency
        self.status = status
        self.reason = reason
        self.card = card
        self.createdAt = createdAt
    }
}

/// A page of payments, newest first.
public struct PaymentList: Sendable, Hashable, Codable {
    /// The payments.
    public var data: [Payment]
    /// Whether older payments follow (ask again with `startingAfter` = the last id).
    public var hasMore: Bool

    /// Creates a page.
    public init(data: [Payment], hasMore: Bool) {
        self.data = data
        self.hasMore = hasMore
    }
}
