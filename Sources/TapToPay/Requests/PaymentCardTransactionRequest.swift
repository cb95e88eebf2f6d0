public import Foundation

/// A request to read a card for a purchase or a refund of an amount (ProximityReader's
/// `PaymentCardTransactionRequest`).
///
/// ```swift
/// var request = PaymentCardTransactionRequest(amount: 12.50, currencyCode: "EUR", for: .purchase)
/// request.transactionDescription = .surchargeAmount(0.50)
/// let result = try await session.readPaymentCard(request)
/// ```
public struct PaymentCardTransactionRequest: Sendable, Hashable {
    /// The largest number of preferred AIDs a request may list.
    public static let maximumPreferredAIDCount = 4

    /// The amount in major units (12.50 for 12.50 EUR); greater than zero.
    public let amount: Decimal
    /// The ISO 4217 alphabetic currency code, e.g. `EUR`.
    public let currencyCode: String
    /// Purchase or refund.
    public let type: TransactionType
    /// AIDs or RIDs (5 to 16 bytes each) to prefer on co-badged cards, best first; at most four.
    public var preferredAIDList: [Data]
    /// What the amount stands for, shown below the amount: a pre-authorization or a surcharge.
    public var transactionDescription: TransactionAmountDescription?

    /// Creates a request for `amount` in `currencyCode`.
    public init(amount: Decimal, currencyCode: String, for type: TransactionType = .purchase) {
        self.amount = amount
        self.currencyCode = currencyCode
        self.type = type
        preferredAIDList = []
        transactionDescription = nil
    }

    /// What the transaction does.
    public enum TransactionType: String, Sendable, Hashable, CaseIterable {
        /// A purchase: the card is charged.
        case purchase
        /// A refund: the card is credited.
        case refund
    }

    /// Extra information about the amount (ProximityReader's `TransactionAmountDescription`); each applies to a
    /// purchase only.
    public enum TransactionAmountDescription: Sendable, Hashable {
        /// The amount is a pre-authorization: a hold, captured later.
        case preauthorization
        /// The amount is a pre-authorization of this much (at most the amount).
        case preauthorizationAmount(Decimal)
        /// The amount includes a surcharge of this much (less than the amount).
        case surchargeAmount(Decimal)
        /// The processor may add a surcharge of up to this percentage (1 to 100, two fraction digits at most);
        /// `Decimal` rather than Apple's `Double`, so it is exact.
        case surchargePercent(Decimal)
    }
}
