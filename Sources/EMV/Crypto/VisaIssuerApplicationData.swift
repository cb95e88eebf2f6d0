/// Visa's issuer application data (tag 9F10) in formats 0, 1 and 3 (VIS 1.5 and 1.6; CVN 10 and 18), built by
/// the card and read by the issuer.
///
/// Layout: `06` ‖ DKI ‖ CVN ‖ CVR (`03` and 3 bytes) ‖ optionally the issuer discretionary data's length ‖ the
/// issuer discretionary data (its first byte's low nibble the IDD option ID), e.g. the real card's
/// `06 04 0A 03A02000`. Source: VIS 1.5 (May 2009), appendix A, "Issuer Application Data"; the same split is
/// made by public Visa IAD parsers ("06 for format 0/1/3, 1F for format 2"). The CVN's high nibble is the
/// format: `0A` format 0, `12` format 1.
public struct VisaIssuerApplicationData: Sendable, Hashable {
    /// The first byte: the length of the Visa discretionary data that follows (DKI, CVN, CVR).
    public static let lengthByte: UInt8 = 0x06

    /// The derivation key index.
    public var derivationKeyIndex: UInt8
    /// The cryptogram version number (``CryptogramVersion/number``), e.g. `0A` or `12`.
    public var cryptogramVersionNumber: UInt8
    /// The card verification results.
    public var cardVerificationResults: VisaCardVerificationResults
    /// The issuer discretionary data after its length byte (at most 255 bytes), empty when the IAD has none.
    public private(set) var issuerDiscretionaryData: [UInt8]

    /// Creates the data from its fields.
    /// - Throws: ``CryptoError/invalidFieldLength`` when the issuer discretionary data is over 255 bytes.
    public init(
        derivationKeyIndex: UInt8, cryptogramVersionNumber: UInt8,
        cardVerificationResults: VisaCardVerificationResults, issuerDiscretionaryData: [UInt8] = []
    ) throws(CryptoError) {
        guard issuerDiscretionaryData.count <= 255 else {
            throw CryptoError(
                .invalidFieldLength,
                "Visa IAD's issuer discretionary data is at most 255 bytes, got \(issuerDiscretionaryData.count)"
            )
        }
        self.derivationKeyIndex = derivationKeyIndex
        self.cryptogramVersionNumber = cryptogramVersionNumber
        self.cardVerificationResults = cardVerificationResults
        self.issuerDiscretionaryData = issuerDiscretionaryData
    }

    /// Reads the IAD.
    /// - Throws: ``CryptoError/invalidFieldLength`` when the data does not start `06`, the CVR does not start
    ///   `03`, it is shorter than 7 bytes, or the issuer discretionary data is not as long as its length byte says.
    public init(bytes: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(bytes)
        guard bytes.count >= 7, bytes[0] == Self.lengthByte else {
            throw CryptoError(
                .invalidFieldLength,
                "Visa IAD formats 0, 1 and 3 start with 06 and have 7 bytes or more, got \(bytes.count)"
            )
        }
        let cvr = try VisaCardVerificationResults(cryptogramBytes: bytes[3..<7])
        guard bytes.count == 7 || bytes.count == 8 + Int(bytes[7]) else {
            throw CryptoError(
                .invalidFieldLength,
                "Visa IAD's issuer discretionary data has length byte \(bytes[7]) but \(bytes.count - 8) bytes follow"
            )
        }
        try self.init(
            derivationKeyIndex: bytes[1], cryptogramVersionNumber: bytes[2], cardVerificationResults: cvr,
            issuerDiscretionaryData: Array(bytes.dropFirst(8))
        )
    }

    /// The format: the CVN's high nibble (0, 1 or 3).
    public var format: Int { Int(cryptogramVersionNumber >> 4) }

    /// The IDD option ID: the low nibble of the issuer discretionary data's first byte, nil without IDD.
    public var issuerDiscretionaryDataOptionID: UInt8? { issuerDiscretionaryData.first.map { $0 & 0x0F } }

    /// The encoded IAD, 7 bytes, or 8 plus the issuer discretionary data.
    public var bytes: [UInt8] {
        let bytes =
            [Self.lengthByte, derivationKeyIndex, cryptogramVersionNumber] + cardVerificationResults.cryptogramBytes
        guard !issuerDiscretionaryData.isEmpty else { return bytes }
        return bytes + [UInt8(truncatingIfNeeded: issuerDiscretionaryData.count)] + issuerDiscretionaryData
    }
}
