import Foundation

/// A summary item charged later, as PassKit's `PKDeferredPaymentSummaryItem` (a hotel stay paid at check-out).
///
/// JSON: `{"label": "Stay", "amount": "240.00", "deferredDate": "2027-01-10T12:00:00Z"}`.
public struct DeferredPaymentSummaryItem: Hashable, Sendable, Codable {
    /// What is charged.
    public var label: String
    /// The amount charged on ``deferredDate``.
    public var amount: Decimal
    /// When the amount is charged.
    public var deferredDate: Date

    /// An item from its parts.
    public init(label: String, amount: Decimal, deferredDate: Date) {
        self.label = label
        self.amount = amount
        self.deferredDate = deferredDate
    }

    private enum CodingKeys: String, CodingKey { case label, amount, deferredDate }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        amount = try container.decodeAmount(forKey: .amount)
        deferredDate = try container.decode(Date.self, forKey: .deferredDate)
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encodeAmount(amount, forKey: .amount)
        try container.encode(deferredDate, forKey: .deferredDate)
    }
}
