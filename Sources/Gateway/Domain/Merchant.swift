public import EMV
public import Foundation

/// A merchant: who the PSP takes payments for.
///
/// Its card acceptor id is ISO 8583 field 42 (15 characters, unique); its account is linked once an admin accepted
/// the Terms and Conditions, which then holds on every device.
public struct Merchant: Sendable, Hashable {
    /// `mer_…`.
    public var id: String
    /// The trading name, shown on receipts and in the reader configuration.
    public var name: String
    /// Where it trades.
    public var country: Country
    /// Its default currency.
    public var currency: Currency
    /// Merchant Category Code (ISO 18245), four digits, e.g. `5411`.
    public var categoryCode: String
    /// Card acceptor identification code, ISO 8583 field 42: 15 characters, unique.
    public var cardAcceptorId: String
    /// When it was created.
    public var createdAt: Date
    /// When an admin accepted the Terms and Conditions; nil while the account is not linked.
    public var termsAcceptedAt: Date?
    /// The merchant user who accepted them.
    public var termsAcceptedBy: String?

    /// Creates a merchant.
    public init(
        id: String, name: String, country: Country, currency: Currency, categoryCode: String, cardAcceptorId: String,
        createdAt: Date, termsAcceptedAt: Date? = nil, termsAcceptedBy: String? = nil
    ) {
        self.id = id
        self.name = name
        self.country = country
        self.currency = currency
        self.categoryCode = categoryCode
        self.cardAcceptorId = cardAcceptorId
        self.createdAt = createdAt
        self.termsAcceptedAt = termsAcceptedAt
        self.termsAcceptedBy = termsAcceptedBy
    }

    /// Whether the Terms and Conditions are accepted (`isAccountLinked`).
    public var isAccountLinked: Bool { termsAcceptedAt != nil }

    /// The default Merchant Category Code: 5999, miscellaneous retail.
    public static let defaultCategoryCode = "5999"

    /// Checks a name and category code a merchant is created with.
    /// - Throws: ``DomainError/Code/invalidInput`` naming the bad field.
    static func validate(name: String, categoryCode: String) throws(DomainError) {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 100 else {
            throw DomainError("the name must have 1 to 100 characters")
        }
        // ASCII digits only: `isNumber` alone also accepts other scripts' digits.
        guard categoryCode.count == 4, categoryCode.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw DomainError("the merchant category code must be four digits")
        }
    }
}

extension Merchant: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, name, country, currency, categoryCode, cardAcceptorId, createdAt, termsAcceptedAt, termsAcceptedBy
        case isAccountLinked
    }

    /// The JSON form: country and currency by their alphabetic codes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(country.alpha2, forKey: .country)
        try container.encode(currency.alphabeticCode, forKey: .currency)
        try container.encode(categoryCode, forKey: .categoryCode)
        try container.encode(cardAcceptorId, forKey: .cardAcceptorId)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(termsAcceptedAt, forKey: .termsAcceptedAt)
        try container.encodeIfPresent(termsAcceptedBy, forKey: .termsAcceptedBy)
        try container.encode(isAccountLinked, forKey: .isAccountLinked)
    }
}
