public import CardEmulator
public import EMV

/// What the reader asked the card to pay (Thales: `TransactionContext`), read from the data the card received: the
/// PDOL data of GET PROCESSING OPTIONS (Visa qVSDC) or the CDOL1 data of GENERATE AC (Mastercard).
public struct TransactionContext: Sendable, Hashable, CustomStringConvertible {
    /// The application identifier the reader selected, in hex, e.g. `A0000000041010`.
    public let aid: String
    /// Amount, authorised (9F02) in minor units of ``currency``.
    public let amount: Int
    /// The transaction currency's ISO 4217 numeric code (5F2A).
    public let currencyCode: Int
    /// The transaction currency; nil for a code this library does not know.
    public let currency: Currency?
    /// The transaction date (9A); nil when the reader sent none.
    public let date: EMVDate?
    /// The transaction type (9C), e.g. 00 purchase.
    public let transactionType: UInt8
    /// The card's scheme.
    public let scheme: CardProfile.Scheme
    /// Whether it is a transit fare: the merchant category code (9F15), when the reader sent one, is a transit one.
    public let isTransit: Bool
    /// The digital card that paid.
    public let digitalCardID: String
    /// The ATC of the transaction.
    public let atc: UInt16

    /// Merchant category codes of transit (ISO 18245): commuter transport, passenger railways, bus lines, tolls,
    /// parking.
    static let transitMerchantCategoryCodes: Set<[UInt8]> = [
        [0x41, 0x11], [0x41, 0x12], [0x41, 0x31], [0x47, 0x84], [0x75, 0x23],
    ]

    init(aid: [UInt8], values: [Tag: [UInt8]], scheme: CardProfile.Scheme, atc: UInt16, digitalCardID: String) {
        self.digitalCardID = digitalCardID
        self.aid = aid.hexString
        amount = Self.number(values[.amountAuthorised] ?? [])
        currencyCode = Self.number(values[.transactionCurrencyCode] ?? [])
        currency = Currency(numericCode: currencyCode)
        date = values[.transactionDate].flatMap { try? EMVDate(n6: $0) }
        transactionType = values[.transactionType]?.first ?? 0
        self.scheme = scheme
        isTransit = values[0x9F15].map(Self.transitMerchantCategoryCodes.contains) ?? false
        self.atc = atc
    }

    /// A BCD number; digits that are not decimal count as zero (the reader's data, never trusted to trap).
    private static func number(_ bcd: [UInt8]) -> Int {
        bcd.reduce(0) { value, byte in
            let high = Int(byte >> 4), low = Int(byte & 0x0F)
            return value &* 100 &+ (high <= 9 ? high : 0) &* 10 &+ (low <= 9 ? low : 0)
        }
    }

    /// `TransactionContext(A0000000041010, 12.34 EUR, purchase)`.
    public var description: String {
        let shown = currency.map { Amount(minorUnits: amount, currency: $0).formatted } ?? "\(amount) (\(currencyCode))"
        return
            "TransactionContext(\(aid), \(shown), type \([transactionType].hexString)\(isTransit ? ", transit" : ""))"
    }
}
