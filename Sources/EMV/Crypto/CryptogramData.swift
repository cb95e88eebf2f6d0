/// The data elements of an application cryptogram, as the cryptogram versions take them (the arguments of
/// pyemv's `cvn.*.generate_ac`).
///
/// The AC data is the ten common elements in this order, EMV 4.3 Book 2, 8.1.1's recommended minimum set —
/// 9F02, 9F03, 9F1A, 95, 5F2A, 9A, 9C, 9F37, 82, 9F36 — followed by what the version adds
/// (``CryptogramVersion/trailingData-swift.property``): the CVR, the CVR and counters, or the whole IAD.
/// Values are raw bytes as the card and terminal exchange them; like pyemv, their lengths are not checked,
/// except that the session key derivations need a 2-byte ATC (or ATC and UN of 6 bytes together).
public struct CryptogramData: Sendable, Hashable {
    /// Amount, authorised (tag 9F02, n12 in 6 bytes); pyemv `tag_9f02`.
    public var amountAuthorized: [UInt8]
    /// Amount, other (tag 9F03); pyemv `tag_9f03`.
    public var amountOther: [UInt8]
    /// Terminal country code (tag 9F1A); pyemv `tag_9f1a`.
    public var terminalCountryCode: [UInt8]
    /// Terminal verification results (tag 95); pyemv `tag_95`.
    public var terminalVerificationResults: [UInt8]
    /// Transaction currency code (tag 5F2A); pyemv `tag_5f2a`.
    public var transactionCurrencyCode: [UInt8]
    /// Transaction date, YYMMDD (tag 9A); pyemv `tag_9a`.
    public var transactionDate: [UInt8]
    /// Transaction type (tag 9C); pyemv `tag_9c`.
    public var transactionType: [UInt8]
    /// Unpredictable number (tag 9F37); pyemv `tag_9f37`.
    public var unpredictableNumber: [UInt8]
    /// Application interchange profile (tag 82); pyemv `tag_82`.
    public var applicationInterchangeProfile: [UInt8]
    /// Application transaction counter (tag 9F36); pyemv `tag_9f36`.
    public var applicationTransactionCounter: [UInt8]
    /// Issuer application data (tag 9F10), for Visa CVN 18 and 22 and Interac CVN 133; pyemv `tag_9f10`.
    public var issuerApplicationData: [UInt8]
    /// Card verification results from the IAD, for Visa CVN 10 (4 bytes) and Mastercard (6 bytes); pyemv `cvr`.
    public var cardVerificationResults: [UInt8]
    /// The counters from the IAD, for Mastercard CVN 17 and 21 (8 or 16 bytes); pyemv `counters`.
    public var counters: [UInt8]

    /// Creates the data; the last three default to empty because each version uses only some of them.
    public init(
        amountAuthorized: [UInt8],
        amountOther: [UInt8],
        terminalCountryCode: [UInt8],
        terminalVerificationResults: [UInt8],
        transactionCurrencyCode: [UInt8],
        transactionDate: [UInt8],
        transactionType: [UInt8],
        unpredictableNumber: [UInt8],
        applicationInterchangeProfile: [UInt8],
        applicationTransactionCounter: [UInt8],
        issuerApplicationData: [UInt8] = [],
        cardVerificationResults: [UInt8] = [],
        counters: [UInt8] = []
    ) {
        self.amountAuthorized = amountAuthorized
        self.amountOther = amountOther
        self.terminalCountryCode = terminalCountryCode
        self.terminalVerificationResults = terminalVerificationResults
        self.transactionCurrencyCode = transactionCurrencyCode
        self.transactionDate = transactionDate
        self.transactionType = transactionType
        self.unpredictableNumber = unpredictableNumber
        self.applicationInterchangeProfile = applicationInterchangeProfile
        self.applicationTransactionCounter = applicationTransactionCounter
        self.issuerApplicationData = issuerApplicationData
        self.cardVerificationResults = cardVerificationResults
        self.counters = counters
    }

    /// The bytes a version computes its cryptogram over, before padding.
    public func bytes(for version: CryptogramVersion) -> [UInt8] {
        // Appended one by one into a single buffer: this runs once per ARQC on the issuer's hot path.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        bytes += amountAuthorized
        bytes += amountOther
        bytes += terminalCountryCode
        bytes += terminalVerificationResults
        bytes += transactionCurrencyCode
        bytes += transactionDate
        bytes += transactionType
        bytes += unpredictableNumber
        bytes += applicationInterchangeProfile
        bytes += applicationTransactionCounter
        switch version.trailingData {
        case .cardVerificationResults:
            bytes += cardVerificationResults
        case .cardVerificationResultsAndCounters:
            bytes += cardVerificationResults
            bytes += counters
        case .issuerApplicationData:
            bytes += issuerApplicationData
        }
        return bytes
    }
}
