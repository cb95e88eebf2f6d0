import Foundation

/// One entry of ``PaymentRequest/paymentSummaryItems``: a plain item or one of PassKit's special kinds (its
/// subclasses of `PKPaymentSummaryItem`).
///
/// JSON: the kind's own object plus `"kind": "recurring" | "deferred" | "automaticReload"`; no `kind` is a plain
/// ``PaymentSummaryItem``.
public enum SummaryItem: Hashable, Sendable, Codable {
    /// A plain line, final or pending.
    case standard(PaymentSummaryItem)
    /// A recurring charge.
    case recurring(RecurringPaymentSummaryItem)
    /// A charge on a later date.
    case deferred(DeferredPaymentSummaryItem)
    /// An automatic reload.
    case automaticReload(AutomaticReloadPaymentSummaryItem)

    /// A plain item, e.g. `.item("Subtotal", 12.34)`.
    public static func item(_ label: String, _ amount: Decimal, type: PaymentSummaryItemType = .final) -> SummaryItem {
        .standard(PaymentSummaryItem(label: label, amount: amount, type: type))
    }

    /// The item's label.
    public var label: String {
        switch self {
        case .standard(let item): item.label
        case .recurring(let item): item.label
        case .deferred(let item): item.label
        case .automaticReload(let item): item.label
        }
    }

    /// The item's amount.
    public var amount: Decimal {
        switch self {
        case .standard(let item): item.amount
        case .recurring(let item): item.amount
        case .deferred(let item): item.amount
        case .automaticReload(let item): item.amount
        }
    }

    /// Pending only for a plain pending item; the special kinds are final, as in PassKit.
    public var type: PaymentSummaryItemType {
        if case .standard(let item) = self { return item.type }
        return .final
    }

    private enum CodingKeys: String, CodingKey { case kind }
    private enum Kind: String, Codable { case recurring, deferred, automaticReload }

    /// Decodes the JSON form, dispatching on `kind`.
    public init(from decoder: any Decoder) throws {
        switch try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Kind.self, forKey: .kind) {
        case nil: self = .standard(try PaymentSummaryItem(from: decoder))
        case .recurring: self = .recurring(try RecurringPaymentSummaryItem(from: decoder))
        case .deferred: self = .deferred(try DeferredPaymentSummaryItem(from: decoder))
        case .automaticReload: self = .automaticReload(try AutomaticReloadPaymentSummaryItem(from: decoder))
        }
    }

    /// Encodes the kind's object with its `kind`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .standard(let item): try item.encode(to: encoder)
        case .recurring(let item):
            try container.encode(Kind.recurring, forKey: .kind)
            try item.encode(to: encoder)
        case .deferred(let item):
            try container.encode(Kind.deferred, forKey: .kind)
            try item.encode(to: encoder)
        case .automaticReload(let item):
            try container.encode(Kind.automaticReload, forKey: .kind)
            try item.encode(to: encoder)
        }
    }
}
