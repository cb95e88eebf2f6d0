/// Terminal Transaction Qualifiers, tag 9F66: the reader's capabilities and requirements for this
/// transaction (EMV Contactless Book A, table 5-4; Book C-3, annex A.2).
public struct TerminalTransactionQualifiers: EMVOptionSet {
    /// Four bytes, byte 1 in the high byte.
    public let rawValue: UInt32

    /// Creates the set from its raw value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Four bytes.
    public static let byteCount = 4
    /// Tag 9F66.
    public static let defaultTag = Tag.terminalTransactionQualifiers

    /// Byte 1 bit 8: mag-stripe mode (MSD) supported.
    public static let magStripeModeSupported = Self(byte: 1, bit: 8)
    /// Byte 1 bit 6: EMV mode (qVSDC) supported.
    public static let emvModeSupported = Self(byte: 1, bit: 6)
    /// Byte 1 bit 5: EMV contact chip supported.
    public static let emvContactChipSupported = Self(byte: 1, bit: 5)
    /// Byte 1 bit 4: offline-only reader.
    public static let offlineOnlyReader = Self(byte: 1, bit: 4)
    /// Byte 1 bit 3: online PIN supported.
    public static let onlinePINSupported = Self(byte: 1, bit: 3)
    /// Byte 1 bit 2: signature supported.
    public static let signatureSupported = Self(byte: 1, bit: 2)
    /// Byte 1 bit 1: offline data authentication for online authorisations supported.
    public static let odaForOnlineAuthorizationsSupported = Self(byte: 1, bit: 1)
    /// Byte 2 bit 8: online cryptogram required.
    public static let onlineCryptogramRequired = Self(byte: 2, bit: 8)
    /// Byte 2 bit 7: CVM required.
    public static let cvmRequired = Self(byte: 2, bit: 7)
    /// Byte 2 bit 6: (contact chip) offline PIN supported.
    public static let contactChipOfflinePINSupported = Self(byte: 2, bit: 6)
    /// Byte 3 bit 8: issuer update processing supported.
    public static let issuerUpdateProcessingSupported = Self(byte: 3, bit: 8)
    /// Byte 3 bit 7: consumer device CVM supported.
    public static let consumerDeviceCVMSupported = Self(byte: 3, bit: 7)
    /// Byte 3 bit 4: consumer device CVM required (Book C-6; reserved in Book C-3).
    public static let consumerDeviceCVMRequired = Self(byte: 3, bit: 4)
    /// Byte 4 bit 8: fDDA version 1.0 supported (Book A; reserved in Book C-3).
    public static let fDDAVersion1Supported = Self(byte: 4, bit: 8)

    /// The defined bits and their names.
    public static let namedBits: [(bit: Self, name: String)] = [
        (.magStripeModeSupported, "Mag-stripe mode supported"),
        (.emvModeSupported, "EMV mode supported"),
        (.emvContactChipSupported, "EMV contact chip supported"),
        (.offlineOnlyReader, "Offline-only reader"),
        (.onlinePINSupported, "Online PIN supported"),
        (.signatureSupported, "Signature supported"),
        (.odaForOnlineAuthorizationsSupported, "Offline data authentication for online authorizations supported"),
        (.onlineCryptogramRequired, "Online cryptogram required"),
        (.cvmRequired, "CVM required"),
        (.contactChipOfflinePINSupported, "(Contact chip) offline PIN supported"),
        (.issuerUpdateProcessingSupported, "Issuer update processing supported"),
        (.consumerDeviceCVMSupported, "Consumer device CVM supported"),
        (.consumerDeviceCVMRequired, "Consumer device CVM required"),
        (.fDDAVersion1Supported, "fDDA v1.0 supported"),
    ]
}
