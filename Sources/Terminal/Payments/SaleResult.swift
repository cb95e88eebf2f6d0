public import GatewayAPI

/// How a sale, refund or verification ended: approved, or declined with the reason, and the receipt either way.
public struct SaleResult: Sendable, Hashable {
    /// Approved or declined.
    public enum Outcome: Sendable, Hashable {
        /// The issuer approved (for a refund: the PSP credited the card).
        case approved
        /// Declined, and why.
        case declined(DeclineReason)
    }

    /// Approved or declined.
    public let outcome: Outcome
    /// What to print or send the cardholder.
    public let receipt: Receipt
    /// The PSP's payment (nil for a refund, and for a card's own decline, which never reaches the PSP).
    public let payment: Payment?
    /// The PSP's refund, for a refund.
    public let refund: Refund?
    /// The id the app gave in ``PaymentParameters/externalID``.
    public let externalID: String?

    /// Creates a result.
    public init(outcome: Outcome, receipt: Receipt, payment: Payment?, refund: Refund? = nil, externalID: String? = nil)
    {
        self.outcome = outcome
        self.receipt = receipt
        self.payment = payment
        self.refund = refund
        self.externalID = externalID
    }

    /// Whether it was approved.
    public var isApproved: Bool { outcome == .approved }
}

/// Why a sale was declined.
public struct DeclineReason: Sendable, Hashable, CustomStringConvertible {
    /// Who declined.
    public enum Source: String, Sendable, Hashable {
        /// The issuer, online (the PSP's ``GatewayAPI/Payment/failureCode``).
        case issuer
        /// The card itself, offline (it answered the read with a decline).
        case card
        /// The cardholder bypassed the PIN the issuer asked for.
        case cardholder
    }

    /// Who declined.
    public let source: Source
    /// The reason's name: the PSP's failure code (e.g. `insufficientFunds`, `incorrectPIN`), `declinedByCard` or
    /// `pinBypassed`.
    public let code: String
    /// The issuer's response code (ISO 8583 field 39), when the issuer answered.
    public let responseCode: String?

    /// Creates a reason.
    public init(source: Source, code: String, responseCode: String? = nil) {
        self.source = source
        self.code = code
        self.responseCode = responseCode
    }

    /// `issuer: insufficientFunds (51)`.
    public var description: String { "\(source.rawValue): \(code)" + (responseCode.map { " (\($0))" } ?? "") }
}
