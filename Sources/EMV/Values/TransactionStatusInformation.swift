/// Transaction Status Information, tag 9B: the functions the terminal performed (EMV Book 3, annex C6,
/// table 47). Byte 2 is reserved.
public struct TransactionStatusInformation: EMVOptionSet {
    /// Two bytes, byte 1 in the high byte.
    public let rawValue: UInt16

    /// Creates the set from its raw value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Two bytes.
    public static let byteCount = 2
    /// Tag 9B.
    public static let defaultTag = Tag.transactionStatusInformation

    /// Byte 1 bit 8: offline data authentication was performed.
    public static let offlineDataAuthenticationPerformed = Self(byte: 1, bit: 8)
    /// Byte 1 bit 7: cardholder verification was performed.
    public static let cardholderVerificationPerformed = Self(byte: 1, bit: 7)
    /// Byte 1 bit 6: card risk management was performed.
    public static let cardRiskManagementPerformed = Self(byte: 1, bit: 6)
    /// Byte 1 bit 5: issuer authentication was performed.
    public static let issuerAuthenticationPerformed = Self(byte: 1, bit: 5)
    /// Byte 1 bit 4: terminal risk management was performed.
    public static let terminalRiskManagementPerformed = Self(byte: 1, bit: 4)
    /// Byte 1 bit 3: script processing was performed.
    public static let scriptProcessingPerformed = Self(byte: 1, bit: 3)

    /// The defined bits and their names.
    public static let namedBits: [(bit: Self, name: String)] = [
        (.offlineDataAuthenticationPerformed, "Offline data authentication was performed"),
        (.cardholderVerificationPerformed, "Cardholder verification was performed"),
        (.cardRiskManagementPerformed, "Card risk management was performed"),
        (.issuerAuthenticationPerformed, "Issuer authentication was performed"),
        (.terminalRiskManagementPerformed, "Terminal risk management was performed"),
        (.scriptProcessingPerformed, "Script processing was performed"),
    ]
}
