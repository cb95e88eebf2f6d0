public import Foundation

/// What to charge in a sale or refund (ECPSdk's `ECPPaymentParameters`).
public struct PaymentParameters: Sendable, Hashable {
    /// The amount, greater than zero, with at most the currency's fraction digits.
    public var amount: Decimal
    /// ISO 4217 alphabetic code, e.g. `EUR`.
    public var currency: String
    /// What the payment is for, shown on the payment screen and the receipt.
    public var paymentDescription: String?
    /// The payment's id in the merchant's own system, carried to the result.
    public var externalID: String?

    /// Creates parameters.
    public init(amount: Decimal, currency: String, paymentDescription: String? = nil, externalID: String? = nil) {
        self.amount = amount
        self.currency = currency
        self.paymentDescription = paymentDescription
        self.externalID = externalID
    }
}
