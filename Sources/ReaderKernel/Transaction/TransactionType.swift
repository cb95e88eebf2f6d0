import EMV

/// The Transaction Type (9C, n2): what the cardholder is doing, as ISO 8583 processing codes put it.
public struct TransactionType: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The BCD byte sent in 9C, e.g. `0x00` for a purchase, `0x20` for a refund.
    public let rawValue: UInt8

    /// Creates a type from its 9C byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `00`: purchase of goods or services.
    public static let purchase = TransactionType(rawValue: 0x00)
    /// `01`: cash withdrawal.
    public static let cash = TransactionType(rawValue: 0x01)
    /// `09`: purchase with cashback.
    public static let purchaseWithCashback = TransactionType(rawValue: 0x09)
    /// `20`: refund.
    public static let refund = TransactionType(rawValue: 0x20)

    /// `purchase`, `cash`, `cashback`, `refund` or the hex byte.
    public var description: String {
        switch rawValue {
        case 0x00: "purchase"
        case 0x01: "cash"
        case 0x09: "purchase with cashback"
        case 0x20: "refund"
        default: "type \([rawValue].hexString)"
        }
    }
}
