/// Terminal Verification Results, tag 95: what the terminal found while processing the transaction (EMV 4.4
/// Book 3, annex C5, table 46; Kernel 2's relay resistance bits from EMV Contactless Book C-2).
///
/// Byte 5 bits 4-1 are "reserved for use by the EMV Contactless Specifications" in Book 3; Kernel 2 uses them
/// for relay resistance, and EMV 4.4 also gives bits 3-2 to ECC key recovery. Both readings have constants
/// (the Kernel 2 ones are aliases of the same bits); ``relayResistance`` decodes bits 2-1 as Kernel 2 does.
public struct TerminalVerificationResults: EMVOptionSet {
    /// Five bytes, byte 1 in bits 39-32.
    public let rawValue: UInt64

    /// Creates the set from its raw value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Five bytes.
    public static let byteCount = 5
    /// Tag 95.
    public static let defaultTag = Tag.terminalVerificationResults

    // Byte 1: offline data authentication.
    /// Byte 1 bit 8: offline data authentication was not performed.
    public static let offlineDataAuthenticationNotPerformed = Self(byte: 1, bit: 8)
    /// Byte 1 bit 7: SDA failed.
    public static let sdaFailed = Self(byte: 1, bit: 7)
    /// Byte 1 bit 6: ICC data missing.
    public static let iccDataMissing = Self(byte: 1, bit: 6)
    /// Byte 1 bit 5: card appears on terminal exception file.
    public static let cardOnExceptionFile = Self(byte: 1, bit: 5)
    /// Byte 1 bit 4: DDA failed.
    public static let ddaFailed = Self(byte: 1, bit: 4)
    /// Byte 1 bit 3: CDA failed.
    public static let cdaFailed = Self(byte: 1, bit: 3)
    /// Byte 1 bit 2: SDA selected.
    public static let sdaSelected = Self(byte: 1, bit: 2)
    /// Byte 1 bit 1: XDA selected (EMV 4.4).
    public static let xdaSelected = Self(byte: 1, bit: 1)

    // Byte 2: processing restrictions.
    /// Byte 2 bit 8: ICC and terminal have different application versions.
    public static let differentApplicationVersions = Self(byte: 2, bit: 8)
    /// Byte 2 bit 7: expired application.
    public static let expiredApplication = Self(byte: 2, bit: 7)
    /// Byte 2 bit 6: application not yet effective.
    public static let applicationNotYetEffective = Self(byte: 2, bit: 6)
    /// Byte 2 bit 5: requested service not allowed for card product.
    public static let serviceNotAllowed = Self(byte: 2, bit: 5)
    /// Byte 2 bit 4: new card.
    public static let newCard = Self(byte: 2, bit: 4)
    /// Byte 2 bit 2: biometric performed and successful (EMV 4.4).
    public static let biometricPerformedSuccessfully = Self(byte: 2, bit: 2)
    /// Byte 2 bit 1: biometric template format not supported (EMV 4.4).
    public static let biometricTemplateFormatNotSupported = Self(byte: 2, bit: 1)

    // Byte 3: cardholder verification.
    /// Byte 3 bit 8: cardholder verification was not successful.
    public static let cardholderVerificationNotSuccessful = Self(byte: 3, bit: 8)
    /// Byte 3 bit 7: unrecognised CVM.
    public static let unrecognisedCVM = Self(byte: 3, bit: 7)
    /// Byte 3 bit 6: PIN try limit exceeded.
    public static let pinTryLimitExceeded = Self(byte: 3, bit: 6)
    /// Byte 3 bit 5: PIN entry required and PIN pad not present or not working.
    public static let pinPadNotPresentOrNotWorking = Self(byte: 3, bit: 5)
    /// Byte 3 bit 4: PIN entry required, PIN pad present, but PIN was not entered.
    public static let pinNotEntered = Self(byte: 3, bit: 4)
    /// Byte 3 bit 3: online CVM captured (EMV 4.4; "online PIN entered" in EMV 4.3).
    public static let onlineCVMCaptured = Self(byte: 3, bit: 3)
    /// Byte 3 bit 3 under its EMV 4.3 name: online PIN entered.
    public static let onlinePINEntered = onlineCVMCaptured
    /// Byte 3 bit 2: biometric required but biometric capture device not working (EMV 4.4).
    public static let biometricCaptureDeviceNotWorking = Self(byte: 3, bit: 2)
    /// Byte 3 bit 1: biometric required, capture device present, but biometric subtype entry bypassed
    /// (EMV 4.4).
    public static let biometricSubtypeBypassed = Self(byte: 3, bit: 1)

    // Byte 4: terminal risk management.
    /// Byte 4 bit 8: transaction exceeds floor limit.
    public static let floorLimitExceeded = Self(byte: 4, bit: 8)
    /// Byte 4 bit 7: lower consecutive offline limit exceeded.
    public static let lowerConsecutiveOfflineLimitExceeded = Self(byte: 4, bit: 7)
    /// Byte 4 bit 6: upper consecutive offline limit exceeded.
    public static let upperConsecutiveOfflineLimitExceeded = Self(byte: 4, bit: 6)
    /// Byte 4 bit 5: transaction selected randomly for online processing.
    public static let randomlySelectedForOnline = Self(byte: 4, bit: 5)
    /// Byte 4 bit 4: merchant forced transaction online.
    public static let merchantForcedOnline = Self(byte: 4, bit: 4)
    /// Byte 4 bit 3: biometric try limit exceeded (EMV 4.4).
    public static let biometricTryLimitExceeded = Self(byte: 4, bit: 3)
    /// Byte 4 bit 2: a selected biometric type not supported (EMV 4.4).
    public static let biometricTypeNotSupported = Self(byte: 4, bit: 2)
    /// Byte 4 bit 1: XDA signature verification failed (EMV 4.4).
    public static let xdaSignatureVerificationFailed = Self(byte: 4, bit: 1)

    // Byte 5: issuer processing, and the contactless kernels' bits.
    /// Byte 5 bit 8: default TDOL used.
    public static let defaultTDOLUsed = Self(byte: 5, bit: 8)
    /// Byte 5 bit 7: issuer authentication failed.
    public static let issuerAuthenticationFailed = Self(byte: 5, bit: 7)
    /// Byte 5 bit 6: script processing failed before final GENERATE AC.
    public static let scriptFailedBeforeFinalGenerateAC = Self(byte: 5, bit: 6)
    /// Byte 5 bit 5: script processing failed after final GENERATE AC.
    public static let scriptFailedAfterFinalGenerateAC = Self(byte: 5, bit: 5)
    /// Byte 5 bit 4: relay resistance threshold exceeded (Kernel 2).
    public static let relayResistanceThresholdExceeded = Self(byte: 5, bit: 4)
    /// Byte 5 bit 3: CA ECC key missing (EMV 4.4).
    public static let caECCKeyMissing = Self(byte: 5, bit: 3)
    /// Byte 5 bit 3 as Kernel 2 reads it: relay resistance time limits exceeded.
    public static let relayResistanceTimeLimitsExceeded = caECCKeyMissing
    /// Byte 5 bit 2: ECC key recovery failed (EMV 4.4).
    public static let eccKeyRecoveryFailed = Self(byte: 5, bit: 2)
    /// Byte 5 bits 2-1 = 10 as Kernel 2 reads them: relay resistance performed.
    public static let relayResistancePerformed = eccKeyRecoveryFailed
    /// Byte 5 bits 2-1 = 01 as Kernel 2 reads them: relay resistance not performed.
    public static let relayResistanceNotPerformed = Self(byte: 5, bit: 1)

    /// The defined bits and their names (for byte 5 bits 3-2, both EMV 4.4's and Kernel 2's).
    public static let namedBits: [(bit: Self, name: String)] = [
        (.offlineDataAuthenticationNotPerformed, "Offline data authentication was not performed"),
        (.sdaFailed, "SDA failed"),
        (.iccDataMissing, "ICC data missing"),
        (.cardOnExceptionFile, "Card appears on terminal exception file"),
        (.ddaFailed, "DDA failed"),
        (.cdaFailed, "CDA failed"),
        (.sdaSelected, "SDA selected"),
        (.xdaSelected, "XDA selected"),
        (.differentApplicationVersions, "ICC and terminal have different application versions"),
        (.expiredApplication, "Expired application"),
        (.applicationNotYetEffective, "Application not yet effective"),
        (.serviceNotAllowed, "Requested service not allowed for card product"),
        (.newCard, "New card"),
        (.biometricPerformedSuccessfully, "Biometric performed and successful"),
        (.biometricTemplateFormatNotSupported, "Biometric template format not supported"),
        (.cardholderVerificationNotSuccessful, "Cardholder verification was not successful"),
        (.unrecognisedCVM, "Unrecognised CVM"),
        (.pinTryLimitExceeded, "PIN Try Limit exceeded"),
        (.pinPadNotPresentOrNotWorking, "PIN entry required and PIN pad not present or not working"),
        (.pinNotEntered, "PIN entry required, PIN pad present, but PIN was not entered"),
        (.onlineCVMCaptured, "Online CVM captured"),
        (.biometricCaptureDeviceNotWorking, "Biometric required but biometric capture device not working"),
        (
            .biometricSubtypeBypassed,
            "Biometric required, biometric capture device present, but biometric subtype entry was bypassed"
        ),
        (.floorLimitExceeded, "Transaction exceeds floor limit"),
        (.lowerConsecutiveOfflineLimitExceeded, "Lower consecutive offline limit exceeded"),
        (.upperConsecutiveOfflineLimitExceeded, "Upper consecutive offline limit exceeded"),
        (.randomlySelectedForOnline, "Transaction selected randomly for online processing"),
        (.merchantForcedOnline, "Merchant forced transaction online"),
        (.biometricTryLimitExceeded, "Biometric try limit exceeded"),
        (.biometricTypeNotSupported, "A selected biometric type not supported"),
        (.xdaSignatureVerificationFailed, "XDA signature verification failed"),
        (.defaultTDOLUsed, "Default TDOL used"),
        (.issuerAuthenticationFailed, "Issuer authentication failed"),
        (.scriptFailedBeforeFinalGenerateAC, "Script processing failed before final GENERATE AC"),
        (.scriptFailedAfterFinalGenerateAC, "Script processing failed after final GENERATE AC"),
        (.relayResistanceThresholdExceeded, "Relay resistance threshold exceeded (Kernel 2)"),
        (.caECCKeyMissing, "CA ECC key missing (Kernel 2: relay resistance time limits exceeded)"),
        (.eccKeyRecoveryFailed, "ECC key recovery failed (Kernel 2: relay resistance performed)"),
        (.relayResistanceNotPerformed, "Relay resistance not performed (Kernel 2)"),
    ]

    /// Kernel 2's reading of byte 5 bits 2-1.
    public enum RelayResistance: UInt8, Hashable, Sendable {
        /// 00: the relay resistance protocol is not supported.
        case notSupported = 0
        /// 01: the protocol was not performed.
        case notPerformed = 1
        /// 10: the protocol was performed.
        case performed = 2
        /// 11: reserved.
        case reserved = 3
    }

    /// Byte 5 bits 2-1 as Kernel 2 defines them.
    public var relayResistance: RelayResistance {
        RelayResistance(rawValue: UInt8(rawValue & 0x03)) ?? .reserved
    }
}
