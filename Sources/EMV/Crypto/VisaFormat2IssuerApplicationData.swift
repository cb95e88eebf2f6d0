/// Visa's issuer application data (tag 9F10) in format 2 (VIS 1.6, CVN 22): 32 bytes.
///
/// Layout: `1F` ‖ CVN ‖ DKI ‖ CVR (5 bytes) ‖ issuer discretionary data (24 bytes, its first byte's low nibble
/// the IDD option ID). Note the CVN comes before the DKI, unlike formats 0, 1 and 3. Source: VIS 1.6 (January
/// 2016), appendix "Issuer Application Data" format 2, as split by public Visa IAD parsers ("1F for format 2";
/// "format 2: CVN, then DKI, CVR of 5 bytes, IDD option ID, IDD"). What the 24 bytes of IDD hold depends on the
/// option ID and the issuer; they are kept as bytes here.
public struct VisaFormat2IssuerApplicationData: Sendable, Hashable {
    /// The first byte: the length of what follows, 31.
    public static let lengthByte: UInt8 = 0x1F
    /// The whole IAD's length.
    public static let byteCount = 32
    /// The issuer discretionary data's length.
    public static let issuerDiscretionaryDataCount = 24

    /// The cryptogram version number (``CryptogramVersion/number``), `22` for CVN 22: format 2 in its high nibble.
    public var cryptogramVersionNumber: UInt8
    /// The derivation key index.
    public var derivationKeyIndex: UInt8
    /// The card verification results.
    public var cardVerificationResults: VisaFormat2CardVerificationResults
    /// The issuer discretionary data, always 24 bytes.
    public private(set) var issuerDiscretionaryData: [UInt8]

    /// Creates the data, padding the issuer discretionary data with zeros to 24 bytes.
    /// - Throws: ``CryptoError/invalidFieldLength`` when the issuer discretionary data is over 24 bytes.
    public init(
        cryptogramVersionNumber: UInt8, derivationKeyIndex: UInt8,
        cardVerificationResults: VisaFormat2CardVerificationResults, issuerDiscretionaryData: [UInt8] = []
    ) throws(CryptoError) {
        let padding = Self.issuerDiscretionaryDataCount - issuerDiscretionaryData.count
        guard padding >= 0 else {
            throw CryptoError(
                .invalidFieldLength,
                "Visa IAD format 2 has at most 24 bytes of IDD, got \(issuerDiscretionaryData.count)"
            )
        }
        self.cryptogramVersionNumber = cryptogramVersionNumber
        self.derivationKeyIndex = derivationKeyIndex
        self.cardVerificationResults = cardVerificationResults
        self.issuerDiscretionaryData = issuerDiscretionaryData + [UInt8](repeating: 0, count: padding)
    }

    /// Reads the IAD.
    /// - Throws: ``CryptoError/invalidFieldLength`` unless there are 32 bytes starting with `1F`.
    public init(bytes: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(bytes)
        guard bytes.count == Self.byteCount, bytes[0] == Self.lengthByte else {
            throw CryptoError(
                .invalidFieldLength, "Visa IAD format 2 has 32 bytes starting with 1F, got \(bytes.count) bytes"
            )
        }
        let cvr = bytes[3..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        try self.init(
            cryptogramVersionNumber: bytes[1], derivationKeyIndex: bytes[2],
            cardVerificationResults: VisaFormat2CardVerificationResults(rawValue: cvr),
            issuerDiscretionaryData: Array(bytes[8...])
        )
    }

    /// The IDD option ID: the low nibble of the issuer discretionary data's first byte.
    public var issuerDiscretionaryDataOptionID: UInt8 { (issuerDiscretionaryData.first ?? 0) & 0x0F }

    /// The encoded IAD, 32 bytes.
    public var bytes: [UInt8] {
        [Self.lengthByte, cryptogramVersionNumber, derivationKeyIndex] + cardVerificationResults.bytes
            + issuerDiscretionaryData
    }
}
