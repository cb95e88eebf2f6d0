import Foundation

/// A summary item that tops up a stored-value balance when it falls below a threshold, as PassKit's
/// `PKAutomaticReloadPaymentSummaryItem`.
///
/// JSON: `{"label": "Top-up", "amount": "25.00", "thresholdAmount": "5.00"}`.
public struct AutomaticReloadPaymentSummaryItem: Hashable, Sendable, Codable {
    /// What is charged.
    public var label: String
    /// The amount of each reload.
    public var amount: Decimal
    /// The balance below which the account reloads.
    public var thresholdAmount: Decimal

    /// An item from its parts.
    public init(label: String, amount: Decimal, thresholdAmount: Decimal) {
        self.label = label
        self.amount = amount
        self.thresholdAmount = thresholdAmount
    }

    private enum CodingKeys: String, CodingKey { case label, amount, thresholdAmount }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        amount = try container.decodeAmount(forKey: .amount)
        thresholdAmount = try container.decodeAmount(forKey: .thresholdAmount)
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encodeAmount(amount, forKey: .amount)
        try container.encodeAmount(thresholdAmount, forKey: .thresholdAmount)
    }
}
