/// A field number with a name, for the fields the gateway↔issuer exchange uses: `message[.pan]`.
public struct ISO8583Field: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The field number, 2...128.
    public let rawValue: Int
    /// Creates a field from its number.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Creates a field from an integer literal.
    public init(integerLiteral value: Int) { self.rawValue = value }
    /// `field 2`.
    public var description: String { "field \(rawValue)" }

    /// 2: primary account number (masked as BIN + last four in descriptions).
    public static let pan: Self = 2
    /// 3: processing code (transaction type, account types).
    public static let processingCode: Self = 3
    /// 4: transaction amount in minor units of field 49's currency.
    public static let amount: Self = 4
    /// 7: transmission date and time, MMDDhhmmss UTC.
    public static let transmissionDateTime: Self = 7
    /// 11: system trace audit number (STAN).
    public static let systemTraceAuditNumber: Self = 11
    /// 12: local transaction time, hhmmss.
    public static let localTime: Self = 12
    /// 14: card expiration date, YYMM.
    public static let expirationDate: Self = 14
    /// 22: point-of-service entry mode (07x: contactless chip).
    public static let posEntryMode: Self = 22
    /// 23: card (PAN) sequence number.
    public static let cardSequenceNumber: Self = 23
    /// 35: track 2 equivalent data (redacted in descriptions).
    public static let track2: Self = 35
    /// 37: retrieval reference number.
    public static let retrievalReferenceNumber: Self = 37
    /// 38: authorization identification response (approval code).
    public static let authorizationCode: Self = 38
    /// 39: response code (`00` approved).
    public static let responseCode: Self = 39
    /// 41: card acceptor terminal identification.
    public static let terminalID: Self = 41
    /// 42: card acceptor (merchant) identification code.
    public static let merchantID: Self = 42
    /// 48: additional data, private: subelements `NN LL value` (Mastercard DE 48 style); a token payment's ECI
    /// (42) and cryptogram (43) travel here, so descriptions redact it.
    public static let additionalData: Self = 48
    /// 49: transaction currency code, ISO 4217 numeric.
    public static let currencyCode: Self = 49
    /// 52: PIN block (redacted in descriptions).
    public static let pinBlock: Self = 52
    /// 55: ICC (EMV chip) data as BER-TLV (redacted in descriptions).
    public static let iccData: Self = 55

    /// Fields whose values descriptions never show: extended PAN, tracks 1-3, private additional data (token
    /// cryptograms), PIN block, ICC data.
    static let redacted: Set<Int> = [34, 35, 36, 45, 48, 52, 55]
}
