import Foundation

/// A line of the payment sheet, as PassKit's `PKPaymentSummaryItem`: a label and an exact amount, final or pending.
///
/// JSON: `{"label": "Subtotal", "amount": "12.34", "type": "final"}` (`type` defaults to final; amounts are
/// decimal strings).
public struct PaymentSummaryItem: Hashable, Sendable, Codable {
    /// What the line is, such as "Subtotal" or the merchant's name for the total.
    public var label: String
    /// The amount in the request's currency, in major units (12.34 for 12.34 EUR).
    public var amount: Decimal
    /// Whether the amount is final or pending.
    public var type: PaymentSummaryItemType

    /// An item from its parts.
    public init(label: String, amount: Decimal, type: PaymentSummaryItemType = .final) {
        self.label = label
        self.amount = amount
        self.type = type
    }

    private enum CodingKeys: String, CodingKey { case label, amount, type }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        amount = try container.decodeAmount(forKey: .amount)
        type = try container.decodeIfPresent(PaymentSummaryItemType.self, forKey: .type) ?? .final
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encodeAmount(amount, forKey: .amount)
        try container.encode(type, forKey: .type)
    }
}
