/// Visa's card verification results of IAD formats 0, 1 and 3 (VIS 1.5 and 1.6, CVN 10 and 18): a length byte
/// `03` and three bytes of bits, numbered bytes 2 to 4 as in VIS.
///
/// The set holds bytes 2-4 only; ``cryptogramBytes`` puts the length byte back, as the IAD and CVN 10's AC data
/// carry it. Layout: VIS 1.5 (May 2009), appendix A, "Card Verification Results" — byte 2 bits 8-7 and 6-5 the
/// cryptogram types of the second and first GENERATE AC, byte 4 bits 8-5 the number of issuer script commands.
public struct VisaCardVerificationResults: CardVerificationResults {
    /// Bytes 2-4 of the CVR, byte 2 in bits 23-16.
    public let rawValue: UInt32

    /// Creates the set from its raw value.
    public init(rawValue: UInt32) { self.rawValue = rawValue & 0xFF_FFFF }

    /// Three bytes after the length byte.
    public static let byteCount = 3
    /// Carried in the issuer application data, tag 9F10.
    public static let defaultTag = Tag.issuerApplicationData

    /// The length byte that precedes the three bytes in the IAD.
    public static let lengthByte: UInt8 = 0x03

    /// The bit `bit` of CVR byte `cvrByte` (2...4), numbered as VIS numbers them.
    private init(cvrByte: Int, bit: Int) { self.init(byte: cvrByte - 1, bit: bit) }

    /// Reads the 4 bytes of the IAD and of CVN 10's AC data: `03` and the three bytes.
    /// - Throws: ``CryptoError/invalidFieldLength`` unless there are 4 bytes starting with `03`.
    public init(cryptogramBytes bytes: some Collection<UInt8>) throws(CryptoError) {
        guard bytes.count == 4, bytes.first == Self.lengthByte else {
            throw CryptoError(.invalidFieldLength, "Visa CVR is 03 and 3 bytes, got \(bytes.count) bytes")
        }
        self.init(rawValue: bytes.dropFirst().reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// The 4 bytes as the IAD and CVN 10's AC data carry them: `03` ‖ bytes 2-4.
    public var cryptogramBytes: [UInt8] { [Self.lengthByte] + bytes }

    // Byte 2: this transaction's cryptograms, issuer authentication and offline PIN.
    /// Byte 2 bit 8 (bits 8-7 = 10): second GENERATE AC not requested.
    public static let secondGenerateACNotRequested = Self(cvrByte: 2, bit: 8)
    /// Byte 2 bit 7 (bits 8-7 = 01): TC returned in the second GENERATE AC.
    public static let secondGenerateACTC = Self(cvrByte: 2, bit: 7)
    /// Byte 2 bit 6 (bits 6-5 = 10): ARQC returned in the first GENERATE AC.
    public static let firstGenerateACARQC = Self(cvrByte: 2, bit: 6)
    /// Byte 2 bit 5 (bits 6-5 = 01): TC returned in the first GENERATE AC.
    public static let firstGenerateACTC = Self(cvrByte: 2, bit: 5)
    /// Byte 2 bit 4: issuer authentication performed and failed.
    public static let issuerAuthenticationFailed = Self(cvrByte: 2, bit: 4)
    /// Byte 2 bit 3: offline PIN verification performed.
    public static let offlinePINVerificationPerformed = Self(cvrByte: 2, bit: 3)
    /// Byte 2 bit 2: offline PIN verification failed.
    public static let offlinePINVerificationFailed = Self(cvrByte: 2, bit: 2)
    /// Byte 2 bit 1: unable to go online.
    public static let unableToGoOnline = Self(cvrByte: 2, bit: 1)

    // Byte 3: what happened in earlier transactions, and the card's state.
    /// Byte 3 bit 8: last online transaction not completed.
    public static let lastOnlineTransactionNotCompleted = Self(cvrByte: 3, bit: 8)
    /// Byte 3 bit 7: PIN try limit exceeded.
    public static let pinTryLimitExceeded = Self(cvrByte: 3, bit: 7)
    /// Byte 3 bit 6: exceeded velocity checking counters.
    public static let velocityCheckingCountersExceeded = Self(cvrByte: 3, bit: 6)
    /// Byte 3 bit 5: new card.
    public static let newCard = Self(cvrByte: 3, bit: 5)
    /// Byte 3 bit 4: issuer authentication failure on last online transaction.
    public static let issuerAuthenticationFailedOnLastOnlineTransaction = Self(cvrByte: 3, bit: 4)
    /// Byte 3 bit 3: issuer authentication not performed after online authorization.
    public static let issuerAuthenticationNotPerformedAfterOnlineAuthorization = Self(cvrByte: 3, bit: 3)
    /// Byte 3 bit 2: application blocked by card because PIN try limit exceeded.
    public static let applicationBlockedPINTryLimitExceeded = Self(cvrByte: 3, bit: 2)
    /// Byte 3 bit 1: offline static data authentication failed on last transaction and it was declined offline.
    public static let sdaFailedOnLastTransaction = Self(cvrByte: 3, bit: 1)

    // Byte 4: issuer scripts and offline dynamic data authentication; bits 8-5 are a count.
    /// Byte 4 bit 4: issuer script processing failed.
    public static let issuerScriptProcessingFailed = Self(cvrByte: 4, bit: 4)
    /// Byte 4 bit 3: offline dynamic data authentication failed on last transaction and it was declined offline.
    public static let ddaFailedOnLastTransaction = Self(cvrByte: 4, bit: 3)
    /// Byte 4 bit 2: offline dynamic data authentication performed.
    public static let ddaPerformed = Self(cvrByte: 4, bit: 2)

    /// The defined single bits and their names (the script command count is ``issuerScriptCommandCount``).
    public static let namedBits: [(bit: Self, name: String)] = [
        (.secondGenerateACNotRequested, "Second GENERATE AC not requested"),
        (.secondGenerateACTC, "TC returned in second GENERATE AC"),
        (.firstGenerateACARQC, "ARQC returned in first GENERATE AC"),
        (.firstGenerateACTC, "TC returned in first GENERATE AC"),
        (.issuerAuthenticationFailed, "Issuer authentication performed and failed"),
        (.offlinePINVerificationPerformed, "Offline PIN verification performed"),
        (.offlinePINVerificationFailed, "Offline PIN verification failed"),
        (.unableToGoOnline, "Unable to go online"),
        (.lastOnlineTransactionNotCompleted, "Last online transaction not completed"),
        (.pinTryLimitExceeded, "PIN try limit exceeded"),
        (.velocityCheckingCountersExceeded, "Exceeded velocity checking counters"),
        (.newCard, "New card"),
        (
            .issuerAuthenticationFailedOnLastOnlineTransaction,
            "Issuer authentication failure on last online transaction"
        ),
        (
            .issuerAuthenticationNotPerformedAfterOnlineAuthorization,
            "Issuer authentication not performed after online authorization"
        ),
        (.applicationBlockedPINTryLimitExceeded, "Application blocked by card because PIN try limit exceeded"),
        (.sdaFailedOnLastTransaction, "Offline static data authentication failed on last transaction"),
        (.issuerScriptProcessingFailed, "Issuer script processing failed"),
        (.ddaFailedOnLastTransaction, "Offline dynamic data authentication failed on last transaction"),
        (.ddaPerformed, "Offline dynamic data authentication performed"),
    ]

    /// Byte 4 bits 8-5, ``issuerScriptCommandCount``.
    public static let countFields: [(mask: Self, name: String)] = [
        (Self(rawValue: 0x0000_F0), "Issuer script commands processed")
    ]

    /// Byte 4 bits 8-5: the number of issuer script commands processed (0...15).
    public var issuerScriptCommandCount: UInt8 {
        get { field(byte: 3, shift: 4, width: 4) }
        set { setField(newValue, byte: 3, shift: 4, width: 4) }
    }
}
