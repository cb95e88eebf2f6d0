/// A request to read a card without an amount, to verify it (ProximityReader's `PaymentCardVerificationRequest`):
/// look up an account, open a tab, save the card.
public struct PaymentCardVerificationRequest: Sendable, Hashable {
    /// The ISO 4217 alphabetic currency code the zero amount is in, e.g. `EUR`.
    public let currencyCode: String
    /// Why the card is read.
    public let verificationReason: Reason

    /// Creates a request.
    public init(currencyCode: String, for reason: Reason = .other) {
        self.currencyCode = currencyCode
        verificationReason = reason
    }

    /// Why a card is verified.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Look up the cardholder's account or earlier payments.
        case lookUp
        /// Open a tab to charge later.
        case openTab
        /// Save the card for later payments.
        case saveCard
        /// Another reason.
        case other
    }
}
