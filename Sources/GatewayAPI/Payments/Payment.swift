public import Foundation

/// A payment as the API shows it: never the PAN (BIN and last four only), never card or PIN data.
public struct Payment: Sendable, Hashable, Codable {
    /// The payment's id (`pay_…`).
    public var id: String
    /// The merchant.
    public var merchantId: String
    /// The reader device that read the card.
    public var deviceId: String?
    /// The read the card data came from.
    public var readId: UUID?
    /// Purchase or verification.
    public var kind: PaymentKind
    /// For a verification: why the card was verified.
    public var verificationReason: VerificationReason?
    /// Where the payment is.
    public var status: PaymentStatus
    /// Automatic or manual capture.
    public var captureMethod: CaptureMethod
    /// The authorised amount in minor units of ``currency``.
    public var amount: Int
    /// ISO 4217 alphabetic code.
    public var currency: String
    /// How much was captured.
    public var capturedAmount: Int
    /// How much of the captured amount was refunded.
    public var refundedAmount: Int
    /// The card, masked.
    public var card: PaymentCard?
    /// The issuer's answer.
    public var issuer: IssuerOutcome?
    /// Why the payment was declined or failed (a ``GatewayAPIError/Code`` name or `declined`).
    public var failureCode: String?
    /// When ``status`` is ``PaymentStatus/requiresPIN``: what the reader needs to send the PIN.
    public var pinRequest: PINRequest?
    /// When the payment was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// Creates a payment.
    public init(
        id: String, merchantId: String, deviceId: String?, readId: UUID?, kind: PaymentKind, status: PaymentStatus,
        captureMethod: CaptureMethod, amount: Int, currency: String, capturedAmount: Int, refundedAmount: Int,
        card: PaymentCard?, issuer: IssuerOutcome?, failureCode: String?, pinRequest: PINRequest?, createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.merchantId = merchantId
        self.deviceId = deviceId
        self.readId = readId
        self.kind = kind
        self.status = status
        self.captureMethod = captureMethod
        self.amount = amount
        self.currency = currency
        self.capturedAmount = capturedAmount
        self.refundedAmount = refundedAmount
        self.card = card
        self.issuer = issuer
        self.failureCode = failureCode
        self.pinRequest = pinRequest
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The card of a payment, as much as may be shown: BIN (first six) and last four.
public struct PaymentCard: Sendable, Hashable, Codable {
    /// The first six digits.
    public var bin: String
    /// The last four digits.
    public var last4: String
    /// `visa`, `mastercard` or `unknown`, from the BIN.
    public var scheme: String
    /// `contactlessChip` or `contactlessMagStripe`.
    public var entryMode: String

    /// Creates a masked card.
    public init(bin: String, last4: String, scheme: String, entryMode: String) {
        self.bin = bin
        self.last4 = last4
        self.scheme = scheme
        self.entryMode = entryMode
    }
}

/// The issuer's answer to an authorisation.
public struct IssuerOutcome: Sendable, Hashable, Codable {
    /// ISO 8583 field 39.
    public var responseCode: String
    /// Field 38, when approved.
    public var approvalCode: String?
    /// The issuer authentication data (tag 91, ARPC) in hex, for a reader that passes it to the card.
    public var authenticationData: String?

    /// Creates an outcome.
    public init(responseCode: String, approvalCode: String?, authenticationData: String?) {
        self.responseCode = responseCode
        self.approvalCode = approvalCode
        self.authenticationData = authenticationData
    }
}

/// What a reader needs to send the cardholder's PIN for a payment in ``PaymentStatus/requiresPIN``.
public struct PINRequest: Sendable, Hashable, Codable {
    /// The token binding the PIN to this payment's read (send it back with the PIN block).
    public var pinToken: String
    /// Until when a PIN block is accepted: 55 s after the read.
    public var expiresAt: Date

    /// Creates a PIN request.
    public init(pinToken: String, expiresAt: Date) {
        self.pinToken = pinToken
        self.expiresAt = expiresAt
    }
}
