/// Card Transaction Qualifiers, tag 9F6C in Kernel 3: the card's CVM requirements and preferences (EMV
/// Contactless Book C-3, annex A.2; byte 1 bit 1 from the Visa Contactless Payment Specification).
///
/// Kernel 2 uses 9F6C for something else (Mag-stripe Application Version Number); this type is Kernel 3's.
public struct CardTransactionQualifiers: EMVOptionSet {
    /// Two bytes, byte 1 in the high byte.
    public let rawValue: UInt16

    /// Creates the set from its raw value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Two bytes.
    public static let byteCount = 2
    /// Tag 9F6C.
    public static let defaultTag = Tag.cardTransactionQualifiers

    /// Byte 1 bit 8: online PIN required.
    public static let onlinePINRequired = Self(byte: 1, bit: 8)
    /// Byte 1 bit 7: signature required.
    public static let signatureRequired = Self(byte: 1, bit: 7)
    /// Byte 1 bit 6: go online if offline data authentication fails and the reader is online capable.
    public static let goOnlineIfODAFails = Self(byte: 1, bit: 6)
    /// Byte 1 bit 5: switch interface if offline data authentication fails and the reader supports contact.
    public static let switchInterfaceIfODAFails = Self(byte: 1, bit: 5)
    /// Byte 1 bit 4: go online if the application has expired.
    public static let goOnlineIfApplicationExpired = Self(byte: 1, bit: 4)
    /// Byte 1 bit 3: switch interface for cash transactions.
    public static let switchInterfaceForCash = Self(byte: 1, bit: 3)
    /// Byte 1 bit 2: switch interface for cashback transactions.
    public static let switchInterfaceForCashback = Self(byte: 1, bit: 2)
    /// Byte 1 bit 1: not valid for contactless ATM transactions (VCPS).
    public static let notValidForContactlessATM = Self(byte: 1, bit: 1)
    /// Byte 2 bit 8: consumer device CVM performed.
    public static let consumerDeviceCVMPerformed = Self(byte: 2, bit: 8)
    /// Byte 2 bit 7: card supports issuer update processing at the POS.
    public static let issuerUpdateProcessingSupported = Self(byte: 2, bit: 7)

    /// The defined bits and their names.
    public static let namedBits: [(bit: Self, name: String)] = [
        (.onlinePINRequired, "Online PIN required"),
        (.signatureRequired, "Signature required"),
        (.goOnlineIfODAFails, "Go online if offline data authentication fails and reader is online capable"),
        (
            .switchInterfaceIfODAFails,
            "Switch interface if offline data authentication fails and reader supports contact chip"
        ),
        (.goOnlineIfApplicationExpired, "Go online if application expired"),
        (.switchInterfaceForCash, "Switch interface for cash transactions"),
        (.switchInterfaceForCashback, "Switch interface for cashback transactions"),
        (.notValidForContactlessATM, "Not valid for contactless ATM transactions"),
        (.consumerDeviceCVMPerformed, "Consumer device CVM performed"),
        (.issuerUpdateProcessingSupported, "Card supports issuer update processing at the POS"),
    ]
}
