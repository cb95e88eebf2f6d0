/// Application Interchange Profile, tag 82: the functions the card supports (EMV Book 3, annex C1, table 41;
/// contactless bits from EMV Contactless Book C-2, annex A).
public struct ApplicationInterchangeProfile: EMVOptionSet {
    /// Two bytes, byte 1 in the high byte.
    public let rawValue: UInt16

    /// Creates the set from its raw value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Two bytes.
    public static let byteCount = 2
    /// Tag 82.
    public static let defaultTag = Tag.applicationInterchangeProfile

    /// Byte 1 bit 8: XDA (Extended Data Authentication) supported (EMV 4.4; RFU before).
    public static let xdaSupported = Self(byte: 1, bit: 8)
    /// Byte 1 bit 7: SDA supported.
    public static let sdaSupported = Self(byte: 1, bit: 7)
    /// Byte 1 bit 6: DDA supported.
    public static let ddaSupported = Self(byte: 1, bit: 6)
    /// Byte 1 bit 5: cardholder verification is supported.
    public static let cardholderVerificationSupported = Self(byte: 1, bit: 5)
    /// Byte 1 bit 4: terminal risk management is to be performed.
    public static let terminalRiskManagementRequired = Self(byte: 1, bit: 4)
    /// Byte 1 bit 3: issuer authentication is supported.
    public static let issuerAuthenticationSupported = Self(byte: 1, bit: 3)
    /// Byte 1 bit 2: on device cardholder verification (CDCVM) is supported (Book C-2; reserved for the
    /// contactless specifications in Book 3).
    public static let onDeviceCardholderVerificationSupported = Self(byte: 1, bit: 2)
    /// Byte 1 bit 1: CDA supported.
    public static let cdaSupported = Self(byte: 1, bit: 1)

    /// Byte 2 bit 8: EMV mode is supported (Book C-2); clear means the card only offers mag-stripe mode.
    /// Book C-3 documents this bit but no longer uses it.
    public static let emvModeSupported = Self(byte: 2, bit: 8)
    /// Byte 2 bit 7: mobile phone (a contactless kernel bit, as decoded by openemv's emv-utils).
    public static let mobilePhone = Self(byte: 2, bit: 7)
    /// Byte 2 bit 6: contactless transaction (a contactless kernel bit, as decoded by openemv's emv-utils).
    public static let contactlessTransaction = Self(byte: 2, bit: 6)
    /// Byte 2 bit 1: relay resistance protocol is supported (Book C-2).
    public static let relayResistanceProtocolSupported = Self(byte: 2, bit: 1)

    /// The defined bits and their names.
    public static let namedBits: [(bit: Self, name: String)] = [
        (.xdaSupported, "XDA supported"),
        (.sdaSupported, "SDA supported"),
        (.ddaSupported, "DDA supported"),
        (.cardholderVerificationSupported, "Cardholder verification is supported"),
        (.terminalRiskManagementRequired, "Terminal risk management is to be performed"),
        (.issuerAuthenticationSupported, "Issuer authentication is supported"),
        (.onDeviceCardholderVerificationSupported, "On device cardholder verification is supported"),
        (.cdaSupported, "CDA supported"),
        (.emvModeSupported, "EMV mode is supported"),
        (.mobilePhone, "Mobile phone"),
        (.contactlessTransaction, "Contactless transaction"),
        (.relayResistanceProtocolSupported, "Relay resistance protocol is supported"),
    ]
}
