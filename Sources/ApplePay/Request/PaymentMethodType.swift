/// The kind of card, as PassKit's `PKPaymentMethodType` (and a token's `paymentMethod.type`).
public enum PaymentMethodType: String, Hashable, Sendable, Codable, CaseIterable {
    /// Unknown.
    case unknown
    /// A debit card.
    case debit
    /// A credit card.
    case credit
    /// A prepaid card (accepted as debit).
    case prepaid
    /// A store card.
    case store
    /// Electronic money (Suica, nanaco, …).
    case eMoney
}
