/// Mastercard's card verification results of M/Chip 4 and M/Chip Advance (CVN 16, 17, 20, 21): six bytes in the
/// issuer application data after the key derivation index and CVN.
///
/// Layout: M/Chip 4 Card Application Specifications, "Card Verification Results" (as also tabulated by public
/// EMV tag references for 9F10) — byte 1 the cryptogram types and offline PIN, byte 2 offline data
/// authentication and issuer authentication, byte 3 the low nibbles of the script counter and PIN try counter,
/// bytes 4-5 the risk management findings, byte 6 the additional check table. M/Chip Advance's extra bits (its
/// byte 1 bit 4, byte 2 bits 3-1, byte 6 bits 8-3) are not named here; they are kept as ``reservedBits``.
public struct MastercardCardVerificationResults: CardVerificationResults {
    /// Six bytes, byte 1 in bits 47-40.
    public let rawValue: UInt64

    /// Creates the set from its raw value.
    public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFFFF_FFFF_FFFF }

    /// Six bytes.
    public static let byteCount = 6
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
    /// Byte 1 bit 3: offline PIN verification performed.
    public static let offlinePINVerificationPerformed = Self(byte: 1, bit: 3)
    /// Byte 1 bit 2: offline encrypted PIN verification performed.
    public static let offlineEncryptedPINVerificationPerformed = Self(byte: 1, bit: 2)
    /// Byte 1 bit 1: offline PIN verification successful.
    public static let offlinePINVerificationSuccessful = Self(byte: 1, bit: 1)

    // Byte 2.
    /// Byte 2 bit 8: DDA returned.
    public static let ddaReturned = Self(byte: 2, bit: 8)
    /// Byte 2 bit 7: combined DDA/AC generation (CDA) returned in the first GENERATE AC.
    public static let cdaReturnedInFirstGenerateAC = Self(byte: 2, bit: 7)
    /// Byte 2 bit 6: combined DDA/AC generation (CDA) returned in the second GENERATE AC.
    public static let cdaReturnedInSecondGenerateAC = Self(byte: 2, bit: 6)
    /// Byte 2 bit 5: issuer authentication performed.
    public static let issuerAuthenticationPerformed = Self(byte: 2, bit: 5)
    /// Byte 2 bit 4: CIAC-default skipped on CAT3.
    public static let ciacDefaultSkippedOnCAT3 = Self(byte: 2, bit: 4)

    // Byte 3 holds two counters: see scriptCounter and pinTryCounter.

    // Byte 4.
    /// Byte 4 bit 8: last online transaction not completed.
    public static let lastOnlineTransactionNotCompleted = Self(byte: 4, bit: 8)
    /// Byte 4 bit 7: unable to go online.
    public static let unableToGoOnline = Self(byte: 4, bit: 7)
    /// Byte 4 bit 6: offline PIN verification not performed.
    public static let offlinePINVerificationNotPerformed = Self(byte: 4, bit: 6)
    /// Byte 4 bit 5: offline PIN verification failed.
    public static let offlinePINVerificationFailed = Self(byte: 4, bit: 5)
    /// Byte 4 bit 4: PIN try limit exceeded.
    public static let pinTryLimitExceeded = Self(byte: 4, bit: 4)
    /// Byte 4 bit 3: international transaction.
    public static let internationalTransaction = Self(byte: 4, bit: 3)
    /// Byte 4 bit 2: domestic transaction.
    public static let domesticTransaction = Self(byte: 4, bit: 2)
    /// Byte 4 bit 1: terminal erroneously considers offline PIN OK.
    public static let terminalErroneouslyConsidersOfflinePINOK = Self(byte: 4, bit: 1)

    // Byte 5.
    /// Byte 5 bit 8: lower consecutive offline limit exceeded.
    public static let lowerConsecutiveOfflineLimitExceeded = Self(byte: 5, bit: 8)
    /// Byte 5 bit 7: upper consecutive offline limit exceeded.
    public static let upperConsecutiveOfflineLimitExceeded = Self(byte: 5, bit: 7)
    /// Byte 5 bit 6: lower cumulative offline limit exceeded.
    public static let lowerCumulativeOfflineLimitExceeded = Self(byte: 5, bit: 6)
    /// Byte 5 bit 5: upper cumulative offline limit exceeded.
    public static let upperCumulativeOfflineLimitExceeded = Self(byte: 5, bit: 5)
    /// Byte 5 bit 4: go online on next transaction was set.
    public static let goOnlineOnNextTransaction = Self(byte: 5, bit: 4)
    /// Byte 5 bit 3: issuer authentication failed.
    public static let issuerAuthenticationFailed = Self(byte: 5, bit: 3)
    /// Byte 5 bit 2: script received.
    public static let scriptReceived = Self(byte: 5, bit: 2)
    /// Byte 5 bit 1: script failed.
    public static let scriptFailed = Self(byte: 5, bit: 1)

    // Byte 6.
    /// Byte 6 bit 2: match found in additional check table.
    public static let additionalCheckTableMatch = Self(byte: 6, bit: 2)
    /// Byte 6 bit 1: no match found in additional check table.
    public static let additionalCheckTableNoMatch = Self(byte: 6, bit: 1)

    /// The defined single bits and their names (the two counters of byte 3 are properties).
    public static let namedBits: [(bit: Self, name: String)] = [
        (.secondGenerateACNotRequested, "Second GENERATE AC not requested"),
        (.secondGenerateACTC, "TC returned in second GENERATE AC"),
        (.firstGenerateACARQC, "ARQC returned in first GENERATE AC"),
        (.firstGenerateACTC, "TC returned in first GENERATE AC"),
        (.offlinePINVerificationPerformed, "Offline PIN verification performed"),
        (.offlineEncryptedPINVerificationPerformed, "Offline encrypted PIN verification performed"),
        (.offlinePINVerificationSuccessful, "Offline PIN verification successful"),
        (.ddaReturned, "DDA returned"),
        (.cdaReturnedInFirstGenerateAC, "Combined DDA/AC generation returned in first GENERATE AC"),
        (.cdaReturnedInSecondGenerateAC, "Combined DDA/AC generation returned in second GENERATE AC"),
        (.issuerAuthenticationPerformed, "Issuer authentication performed"),
        (.ciacDefaultSkippedOnCAT3, "CIAC-default skipped on CAT3"),
        (.lastOnlineTransactionNotCompleted, "Last online transaction not completed"),
        (.unableToGoOnline, "Unable to go online"),
        (.offlinePINVerificationNotPerformed, "Offline PIN verification not performed"),
        (.offlinePINVerificationFailed, "Offline PIN verification failed"),
        (.pinTryLimitExceeded, "PIN try limit exceeded"),
        (.internationalTransaction, "International transaction"),
        (.domesticTransaction, "Domestic transaction"),
        (.terminalErroneouslyConsidersOfflinePINOK, "Terminal erroneously considers offline PIN OK"),
        (.lowerConsecutiveOfflineLimitExceeded, "Lower consecutive offline limit exceeded"),
        (.upperConsecutiveOfflineLimitExceeded, "Upper consecutive offline limit exceeded"),
        (.lowerCumulativeOfflineLimitExceeded, "Lower cumulative offline limit exceeded"),
        (.upperCumulativeOfflineLimitExceeded, "Upper cumulative offline limit exceeded"),
        (.goOnlineOnNextTransaction, "Go online on next transaction was set"),
        (.issuerAuthenticationFailed, "Issuer authentication failed"),
        (.scriptReceived, "Script received"),
        (.scriptFailed, "Script failed"),
        (.additionalCheckTableMatch, "Match found in additional check table"),
        (.additionalCheckTableNoMatch, "No match found in additional check table"),
    ]

    /// Byte 3 bits 8-5, ``scriptCounter``, and bits 4-1, ``pinTryCounter``.
    public static let countFields: [(mask: Self, name: String)] = [
        (Self(rawValue: 0x0000_F000_0000), "Script counter"),
        (Self(rawValue: 0x0000_0F00_0000), "PIN try counter"),
    ]

    /// Byte 3 bits 8-5: the low-order nibble of the issuer script command counter.
    public var scriptCounter: UInt8 {
        get { field(byte: 3, shift: 4, width: 4) }
        set { setField(newValue, byte: 3, shift: 4, width: 4) }
    }

    /// Byte 3 bits 4-1: the low-order nibble of the PIN try counter.
    public var pinTryCounter: UInt8 {
        get { field(byte: 3, shift: 0, width: 4) }
        set { setField(newValue, byte: 3, shift: 0, width: 4) }
    }
}
