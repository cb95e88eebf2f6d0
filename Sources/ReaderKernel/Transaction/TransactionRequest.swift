public import EMV

/// What the merchant asks for: an amount in a currency, an optional other (cashback) amount, the transaction type and,
/// for co-badged cards, the applications the cardholder or merchant prefers.
public struct TransactionRequest: Sendable, Hashable {
    /// Amount, Authorised (9F02) and, through its currency, the Transaction Currency Code (5F2A).
    public var amount: Amount
    /// Amount, Other (9F03): the cashback part; zero when nil.
    public var otherAmount: Amount?
    /// Transaction Type (9C).
    public var type: TransactionType
    /// AIDs to prefer, best first, over the card's own priorities (co-badged cards: EU IFR article 8).
    public var preferredAIDs: [[UInt8]]

    /// Creates a request.
    public init(
        amount: Amount, otherAmount: Amount? = nil, type: TransactionType = .purchase, preferredAIDs: [[UInt8]] = []
    ) {
        self.amount = amount
        self.otherAmount = otherAmount
        self.type = type
        self.preferredAIDs = preferredAIDs
    }

    /// The currency of the transaction.
    public var currency: Currency { amount.currency }
}
