import Foundation

/// A range of calendar days, as PassKit's `PKDateComponentsRange` for a shipping method's expected delivery.
///
/// JSON: `{"startDateComponents": "2026-11-24", "endDateComponents": "2026-11-26"}` (year-month-day).
public struct DateComponentsRange: Hashable, Sendable, Codable {
    /// The first day (year, month and day are set).
    public var startDateComponents: DateComponents
    /// The last day (year, month and day are set).
    public var endDateComponents: DateComponents

    /// A range from two days; nil when the end is before the start, as PassKit's initializer returns nil.
    public init?(startDateComponents: DateComponents, endDateComponents: DateComponents) {
        self.startDateComponents = startDateComponents
        self.endDateComponents = endDateComponents
        guard isOrdered else { return nil }
    }

    /// Whether the end day is on or after the start day (a decoded range may not be).
    public var isOrdered: Bool { Self.dayKey(startDateComponents) <= Self.dayKey(endDateComponents) }

    private static func dayKey(_ components: DateComponents) -> Int {
        (components.year ?? 0) * 10_000 + (components.month ?? 0) * 100 + (components.day ?? 0)
    }

    private enum CodingKeys: String, CodingKey { case startDateComponents, endDateComponents }

    /// Decodes two `YYYY-MM-DD` days; the order is checked by validation, not here.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startDateComponents = try Self.day(container, .startDateComponents)
        endDateComponents = try Self.day(container, .endDateComponents)
    }

    /// Encodes two `YYYY-MM-DD` days.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.text(startDateComponents), forKey: .startDateComponents)
        try container.encode(Self.text(endDateComponents), forKey: .endDateComponents)
    }

    private static func day(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws
        -> DateComponents
    {
        let text = try container.decode(String.self, forKey: key)
        let fields = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard fields.count == 3, let year = fields[0], let month = fields[1], let day = fields[2],
            (1...12).contains(month), (1...31).contains(day)
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\"\(text)\" is not a day such as \"2026-11-24\"")
        }
        return DateComponents(year: year, month: month, day: day)
    }

    private static func text(_ components: DateComponents) -> String {
        let year = components.year ?? 0
        let month = components.month ?? 0
        let day = components.day ?? 0
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
