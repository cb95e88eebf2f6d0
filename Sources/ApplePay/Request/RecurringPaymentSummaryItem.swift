import Foundation

/// A summary item charged repeatedly, as PassKit's `PKRecurringPaymentSummaryItem`: every ``intervalCount``
/// ``intervalUnit``s from ``startDate`` until ``endDate``.
///
/// JSON: `{"label": "Monthly", "amount": "9.99", "intervalUnit": "month", "intervalCount": 1,
/// "startDate": "2026-12-01T00:00:00Z"}`.
public struct RecurringPaymentSummaryItem: Hashable, Sendable, Codable {
    /// The calendar unit of the interval, as the units PassKit accepts from `NSCalendar.Unit`.
    public enum IntervalUnit: String, Hashable, Sendable, Codable, CaseIterable {
        /// Every so many minutes.
        case minute
        /// Every so many hours.
        case hour
        /// Every so many days.
        case day
        /// Every so many months.
        case month
        /// Every so many years.
        case year
    }

    /// What is charged, such as "Monthly subscription".
    public var label: String
    /// The amount of each charge.
    public var amount: Decimal
    /// The first charge; nil for now.
    public var startDate: Date?
    /// The last possible charge; nil for no end.
    public var endDate: Date?
    /// The unit of the interval between charges.
    public var intervalUnit: IntervalUnit
    /// How many units lie between charges (at least 1).
    public var intervalCount: Int

    /// An item from its parts.
    public init(
        label: String, amount: Decimal, startDate: Date? = nil, endDate: Date? = nil,
        intervalUnit: IntervalUnit = .month, intervalCount: Int = 1
    ) {
        self.label = label
        self.amount = amount
        self.startDate = startDate
        self.endDate = endDate
        self.intervalUnit = intervalUnit
        self.intervalCount = intervalCount
    }

    private enum CodingKeys: String, CodingKey { case label, amount, startDate, endDate, intervalUnit, intervalCount }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        amount = try container.decodeAmount(forKey: .amount)
        startDate = try container.decodeIfPresent(Date.self, forKey: .startDate)
        endDate = try container.decodeIfPresent(Date.self, forKey: .endDate)
        intervalUnit = try container.decodeIfPresent(IntervalUnit.self, forKey: .intervalUnit) ?? .month
        intervalCount = try container.decodeIfPresent(Int.self, forKey: .intervalCount) ?? 1
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encodeAmount(amount, forKey: .amount)
        try container.encodeIfPresent(startDate, forKey: .startDate)
        try container.encodeIfPresent(endDate, forKey: .endDate)
        try container.encode(intervalUnit, forKey: .intervalUnit)
        try container.encode(intervalCount, forKey: .intervalCount)
    }
}
