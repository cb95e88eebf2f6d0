/// Visa's card verification results of IAD format 2 (CVN 22): five bytes laid out as the EMV Common Core
/// Definitions CVR.
///
/// Layout: EMV 4.3 Book 3, annex C7.3 (Common Core Definitions, "Card Verification Results"), which VIS 1.6's
/// format 2 CVR follows — byte 1 the cryptogram types and issuer authentication, byte 2 the PIN try counter's low
/// nibble and offline PIN, byte 3 offline limits and four issuer-discretionary bits, byte 4 the count of secure
/// messaging script commands, byte 5 reserved.
public struct VisaFormat2CardVerificationResults: CardVerificationResults {
    /// Five bytes, byte 1 in bits 39-32.
    public let rawValue: UInt64

    /// Creates the set from its raw value.
    public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFF_FFFF_FFFF }

    /// Five bytes.
    public static let byteCount = 5
    /// Carried in the issuer application data, tag 9F10.
    public static let defaultTag = Tag.issuerApplicationData

    // Byte 1.
    /// Byte 1 bit 8 (bits 8-7 = 10): second GENERATE AC not requested.
    public static let secondGenerateACNotRequested = Self(byte: 1, bit: 8)
    /// Byte 1 bit 7 (bits 8-7 = 01): TC returned in the second GENERATE AC.
    public static let secondGenerateACTC = Self(byte: 1, bit: 7)
    /// Byte 1 bit 6 (bits 6-5 = 10): ARQC returned in the first GENERATE AC.
    public static let firstGenerateACARQC = Self(byte: 1, bit: 6)
    /// Byte 1 bit 5 (bits 6-5 = 01): TC returned in the first GENERATE AC.
    public static let firstGenerateACTC = Self(byte: 1, bit: 5)
    /// Byte 1 bit 4: CDA performed.
    public static let cdaPerformed = Self(byte: 1, bit: 4)
    /// Byte 1 bit 3: offline DDA performed.
    public static let ddaPerformed = Self(byte: 1, bit: 3)
    /// Byte 1 bit 2: issuer authentication not performed.
    public static let issuerAuthenticationNotPerformed = Self(byte: 1, bit: 2)
    /// Byte 1 bit 1: issuer authentication failed.
    public static let issuerAuthenticationFailed = Self(byte: 1, bit: 1)

    // Byte 2: bits 8-5 are the PIN try counter's low nibble.
    /// Byte 2 bit 4: offline PIN verification performed.
    public static let offlinePINVerificationPerformed = Self(byte: 2, bit: 4)
    /// Byte 2 bit 3: offline PIN verification performed and PIN not successfully verified.
    public static let offlinePINVerificationFailed = Self(byte: 2, bit: 3)
    /// Byte 2 bit 2: PIN try limit exceeded.
    public static let pinTryLimitExceeded = Self(byte: 2, bit: 2)
    /// Byte 2 bit 1: last online transaction not completed.
    public static let lastOnlineTransactionNotCompleted = Self(byte: 2, bit: 1)

    // Byte 3.
    /// Byte 3 bit 8: lower offline transaction count limit exceeded.
    public static let lowerOfflineTransactionCountLimitExceeded = Self(byte: 3, bit: 8)
    /// Byte 3 bit 7: upper offline transaction count limit exceeded.
    public static let upperOfflineTransactionCountLimitExceeded = Self(byte: 3, bit: 7)
    /// Byte 3 bit 6: lower cumulative offline amount limit exceeded.
    public static let lowerCumulativeOfflineAmountLimitExceeded = Self(byte: 3, bit: 6)
    /// Byte 3 bit 5: upper cumulative offline amount limit exceeded.
    public static let upperCumulativeOfflineAmountLimitExceeded = Self(byte: 3, bit: 5)
    /// Byte 3 bit 4: issuer-discretionary bit 1.
    public static let issuerDiscretionaryBit1 = Self(byte: 3, bit: 4)
    /// Byte 3 bit 3: issuer-discretionary bit 2.
    public static let issuerDiscretionaryBit2 = Self(byte: 3, bit: 3)
    /// Byte 3 bit 2: issuer-discretionary bit 3.
    public static let issuerDiscretionaryBit3 = Self(byte: 3, bit: 2)
    /// Byte 3 bit 1: issuer-discretionary bit 4.
    public static let issuerDiscretionaryBit4 = Self(byte: 3, bit: 1)

    // Byte 4: bits 8-5 are the count of script commands with secure messaging.
    /// Byte 4 bit 4: issuer script processing failed.
    public static let issuerScriptProcessingFailed = Self(byte: 4, bit: 4)
    /// Byte 4 bit 3: offline data authentication failed on previous transaction.
    public static let offlineDataAuthenticationFailedOnPreviousTransaction = Self(byte: 4, bit: 3)
    /// Byte 4 bit 2: go online on next transaction was set.
    public static let goOnlineOnNextTransaction = Self(byte: 4, bit: 2)
    /// Byte 4 bit 1: unable to go online.
    public static let unableToGoOnline = Self(byte: 4, bit: 1)

    /// The defined single bits and their names (the two counts are properties).
    public static let namedBits: [(bit: Self, name: String)] = [
        (.secondGenerateACNotRequested, "Second GENERATE AC not requested"),
        (.secondGenerateACTC, "TC returned in second GENERATE AC"),
        (.firstGenerateACARQC, "ARQC returned in first GENERATE AC"),
        (.firstGenerateACTC, "TC returned in first GENERATE AC"),
        (.cdaPerformed, "CDA performed"),
        (.ddaPerformed, "Offline DDA performed"),
        (.issuerAuthenticationNotPerformed, "Issuer authentication not performed"),
        (.issuerAuthenticationFailed, "Issuer authentication failed"),
        (.offlinePINVerificationPerformed, "Offline PIN verification performed"),
        (.offlinePINVerificationFailed, "Offline PIN verification performed and PIN not successfully verified"),
        (.pinTryLimitExceeded, "PIN try limit exceeded"),
        (.lastOnlineTransactionNotCompleted, "Last online transaction not completed"),
        (.lowerOfflineTransactionCountLimitExceeded, "Lower offline transaction count limit exceeded"),
        (.upperOfflineTransactionCountLimitExceeded, "Upper offline transaction count limit exceeded"),
        (.lowerCumulativeOfflineAmountLimitExceeded, "Lower cumulative offline amount limit exceeded"),
        (.upperCumulativeOfflineAmountLimitExceeded, "Upper cumulative offline amount limit exceeded"),
        (.issuerDiscretionaryBit1, "Issuer-discretionary bit 1"),
        (.issuerDiscretionaryBit2, "Issuer-discretionary bit 2"),
        (.issuerDiscretionaryBit3, "Issuer-discretionary bit 3"),
        (.issuerDiscretionaryBit4, "Issuer-discretionary bit 4"),
        (.issuerScriptProcessingFailed, "Issuer script processing failed"),
        (
            .offlineDataAuthenticationFailedOnPreviousTransaction,
            "Offline data authentication failed on previous transaction"
        ),
        (.goOnlineOnNextTransaction, "Go online on next transaction was set"),
        (.unableToGoOnline, "Unable to go online"),
    ]

    /// Byte 2 bits 8-5, ``pinTryCounter``, and byte 4 bits 8-5, ``issuerScriptCommandCount``.
    public static let countFields: [(mask: Self, name: String)] = [
        (Self(rawValue: 0x00_F000_0000), "PIN try counter"),
        (Self(rawValue: 0x00_0000_F000), "Secure messaging script commands processed"),
    ]

    /// Byte 2 bits 8-5: the low-order nibble of the PIN try counter.
    public var pinTryCounter: UInt8 {
        get { field(byte: 2, shift: 4, width: 4) }
        set { setField(newValue, byte: 2, shift: 4, width: 4) }
    }

    /// Byte 4 bits 8-5: the number of issuer script commands containing secure messaging processed (0...15).
    public var issuerScriptCommandCount: UInt8 {
        get { field(byte: 4, shift: 4, width: 4) }
        set { setField(newValue, byte: 4, shift: 4, width: 4) }
    }
}
