import Foundation

/// One merchant's share of a multi-merchant payment, as PassKit's `PKPaymentTokenContext`: the sheet makes one
/// token per context.
///
/// JSON: `{"merchantIdentifier": "merchant.com.example.hotel", "externalIdentifier": "hotel-1",
/// "merchantName": "Hotel", "merchantDomain": "hotel.example", "amount": "120.00"}`.
public struct PaymentTokenContext: Hashable, Sendable, Codable {
    /// The Apple Pay merchant identifier the token is encrypted for.
    public var merchantIdentifier: String
    /// The caller's identifier of this context, unique within the request.
    public var externalIdentifier: String
    /// The merchant's name, shown on the sheet.
    public var merchantName: String
    /// The merchant's top-level domain, if any.
    public var merchantDomain: String?
    /// The amount this merchant's token authorizes.
    public var amount: Decimal

    /// A context from its parts.
    public init(
        merchantIdentifier: String, externalIdentifier: String, merchantName: String, merchantDomain: String? = nil,
        amount: Decimal
    ) {
        self.merchantIdentifier = merchantIdentifier
        self.externalIdentifier = externalIdentifier
        self.merchantName = merchantName
        self.merchantDomain = merchantDomain
        self.amount = amount
    }

    private enum CodingKeys: String, CodingKey {
        case merchantIdentifier, externalIdentifier, merchantName, merchantDomain, amount
    }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        merchantIdentifier = try container.decode(String.self, forKey: .merchantIdentifier)
        externalIdentifier = try container.decode(String.self, forKey: .externalIdentifier)
        merchantName = try container.decode(String.self, forKey: .merchantName)
        merchantDomain = try container.decodeIfPresent(String.self, forKey: .merchantDomain)
        amount = try container.decodeAmount(forKey: .amount)
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(merchantIdentifier, forKey: .merchantIdentifier)
        try container.encode(externalIdentifier, forKey: .externalIdentifier)
        try container.encode(merchantName, forKey: .merchantName)
        try container.encodeIfPresent(merchantDomain, forKey: .merchantDomain)
        try container.encodeAmount(amount, forKey: .amount)
    }
}
