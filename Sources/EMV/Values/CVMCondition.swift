/// When a CV rule applies: the condition code in a CV rule's second byte (EMV 4.4 Book 3, annex C3,
/// table 44).
public struct CVMCondition: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The condition code.
    public let rawValue: UInt8

    /// Creates a condition from its code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 00: always.
    public static let always = CVMCondition(rawValue: 0x00)
    /// 01: if unattended cash.
    public static let unattendedCash = CVMCondition(rawValue: 0x01)
    /// 02: if not unattended cash and not manual cash and not purchase with cashback.
    public static let notCashOrCashback = CVMCondition(rawValue: 0x02)
    /// 03: if terminal supports the CVM.
    public static let terminalSupportsCVM = CVMCondition(rawValue: 0x03)
    /// 04: if manual cash.
    public static let manualCash = CVMCondition(rawValue: 0x04)
    /// 05: if purchase with cashback.
    public static let purchaseWithCashback = CVMCondition(rawValue: 0x05)
    /// 06: if transaction is in the application currency and is under X value.
    public static let underX = CVMCondition(rawValue: 0x06)
    /// 07: if transaction is in the application currency and is over X value.
    public static let overX = CVMCondition(rawValue: 0x07)
    /// 08: if transaction is in the application currency and is under Y value.
    public static let underY = CVMCondition(rawValue: 0x08)
    /// 09: if transaction is in the application currency and is over Y value.
    public static let overY = CVMCondition(rawValue: 0x09)

    /// Whether the condition compares the amount with X or Y of the CVM list.
    public var usesAmount: Bool { (0x06...0x09).contains(rawValue) }

    /// The name from the specification.
    public var name: String {
        switch rawValue {
        case 0x00: "Always"
        case 0x01: "If unattended cash"
        case 0x02: "If not unattended cash and not manual cash and not purchase with cashback"
        case 0x03: "If terminal supports the CVM"
        case 0x04: "If manual cash"
        case 0x05: "If purchase with cashback"
        case 0x06: "If transaction is in the application currency and is under X value"
        case 0x07: "If transaction is in the application currency and is over X value"
        case 0x08: "If transaction is in the application currency and is under Y value"
        case 0x09: "If transaction is in the application currency and is over Y value"
        case 0x80...0xFF: "Reserved for use by individual payment systems"
        default: "Reserved for future use"
        }
    }

    /// The name and the code in hex.
    public var description: String { "\(name) (\([rawValue].hexString))" }
}
