import Foundation

/// A way to ship the order, as PassKit's `PKShippingMethod`: a summary item with an identifier, a detail line and
/// an optional delivery date range.
///
/// JSON: `{"identifier": "express", "label": "Express", "detail": "1–2 days", "amount": "9.90",
/// "dateComponentsRange": {"startDateComponents": "2026-11-24", "endDateComponents": "2026-11-25"}}`.
public struct ShippingMethod: Hashable, Sendable, Codable {
    /// The merchant's identifier of the method, unique among the request's methods.
    public var identifier: String
    /// The name shown, such as "Express".
    public var label: String
    /// What the method costs; the merchant adds it to the summary items itself, as with PassKit.
    public var amount: Decimal
    /// Final or pending cost.
    public var type: PaymentSummaryItemType
    /// A second line shown under the label, such as "Arrives in 1–2 days".
    public var detail: String?
    /// When the order is expected to arrive.
    public var dateComponentsRange: DateComponentsRange?

    /// A method from its parts.
    public init(
        identifier: String, label: String, amount: Decimal, type: PaymentSummaryItemType = .final,
        detail: String? = nil, dateComponentsRange: DateComponentsRange? = nil
    ) {
        self.identifier = identifier
        self.label = label
        self.amount = amount
        self.type = type
        self.detail = detail
        self.dateComponentsRange = dateComponentsRange
    }

    private enum CodingKeys: String, CodingKey { case identifier, label, amount, type, detail, dateComponentsRange }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        label = try container.decode(String.self, forKey: .label)
        amount = try container.decodeAmount(forKey: .amount)
        type = try container.decodeIfPresent(PaymentSummaryItemType.self, forKey: .type) ?? .final
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        dateComponentsRange = try container.decodeIfPresent(DateComponentsRange.self, forKey: .dateComponentsRange)
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(label, forKey: .label)
        try container.encodeAmount(amount, forKey: .amount)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(detail, forKey: .detail)
        try container.encodeIfPresent(dateComponentsRange, forKey: .dateComponentsRange)
    }
}
