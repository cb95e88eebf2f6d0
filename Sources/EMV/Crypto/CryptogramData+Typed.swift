extension CryptogramData {
    /// Creates the data for `version` from the ten common elements and the card's issuer application data
    /// (tag 9F10), taking from the IAD what the version's AC data needs: the CVR for Visa CVN 10 and Mastercard
    /// CVN 16 and 20, the CVR and counters for CVN 17 and 21, the whole IAD for Visa CVN 18 and 22 and Interac.
    ///
    /// The IAD is read in the version's layout (``CryptogramVersion/issuerApplicationDataFormat``), so a
    /// malformed one is rejected here rather than giving a wrong cryptogram.
    /// - Throws: ``CryptoError/invalidFieldLength`` when the IAD does not have the version's layout, and
    ///   ``CryptoError/invalidParameter`` when it names another CVN.
    public init(
        version: CryptogramVersion,
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
        issuerApplicationData: [UInt8]
    ) throws(CryptoError) {
        self.init(
            amountAuthorized: amountAuthorized, amountOther: amountOther, terminalCountryCode: terminalCountryCode,
            terminalVerificationResults: terminalVerificationResults, transactionCurrencyCode: transactionCurrencyCode,
            transactionDate: transactionDate, transactionType: transactionType,
            unpredictableNumber: unpredictableNumber,
            applicationInterchangeProfile: applicationInterchangeProfile,
            applicationTransactionCounter: applicationTransactionCounter
        )
        try setIssuerApplicationData(issuerApplicationData, for: version)
    }

    /// Reads the card's IAD in `version`'s layout and sets ``issuerApplicationData``,
    /// ``cardVerificationResults`` and ``counters`` from it (Interac: the IAD only, unread).
    /// - Throws: ``CryptoError/invalidFieldLength`` when the IAD does not have the version's layout, and
    ///   ``CryptoError/invalidParameter`` when it names another CVN.
    public mutating func setIssuerApplicationData(_ bytes: [UInt8], for version: CryptogramVersion) throws(CryptoError)
    {
        switch version.issuerApplicationDataFormat {
        case .visa: try setIssuerApplicationData(VisaIssuerApplicationData(bytes: bytes), for: version)
        case .visaFormat2: try setIssuerApplicationData(VisaFormat2IssuerApplicationData(bytes: bytes), for: version)
        case .mastercard: try setIssuerApplicationData(MastercardIssuerApplicationData(bytes: bytes), for: version)
        case .interac: set(issuerApplicationData: bytes, cardVerificationResults: [], counters: [])
        }
    }

    /// Sets the IAD fields from a Visa format 0, 1 or 3 IAD, for Visa CVN 10 or 18.
    /// - Throws: ``CryptoError/invalidParameter`` when `version` takes another layout or the IAD another CVN.
    public mutating func setIssuerApplicationData(
        _ iad: VisaIssuerApplicationData, for version: CryptogramVersion
    ) throws(CryptoError) {
        try Self.check(iad.cryptogramVersionNumber, .visa, against: version)
        set(issuerApplicationData: iad.bytes, cardVerificationResults: iad.cardVerificationResults.cryptogramBytes)
    }

    /// Sets the IAD fields from a Visa format 2 IAD, for Visa CVN 22.
    /// - Throws: ``CryptoError/invalidParameter`` when `version` takes another layout or the IAD another CVN.
    public mutating func setIssuerApplicationData(
        _ iad: VisaFormat2IssuerApplicationData, for version: CryptogramVersion
    ) throws(CryptoError) {
        try Self.check(iad.cryptogramVersionNumber, .visaFormat2, against: version)
        set(issuerApplicationData: iad.bytes, cardVerificationResults: iad.cardVerificationResults.bytes)
    }

    /// Sets the IAD fields from a Mastercard IAD, for CVN 16, 17, 20 or 21.
    /// - Throws: ``CryptoError/invalidParameter`` when `version` takes another layout or the IAD another CVN.
    public mutating func setIssuerApplicationData(
        _ iad: MastercardIssuerApplicationData, for version: CryptogramVersion
    ) throws(CryptoError) {
        try Self.check(iad.cryptogramVersionNumber, .mastercard, against: version)
        set(
            issuerApplicationData: iad.bytes, cardVerificationResults: iad.cardVerificationResults.bytes,
            counters: iad.counters
        )
    }

    private mutating func set(issuerApplicationData: [UInt8], cardVerificationResults: [UInt8], counters: [UInt8] = [])
    {
        self.issuerApplicationData = issuerApplicationData
        self.cardVerificationResults = cardVerificationResults
        self.counters = counters
    }

    private static func check(
        _ number: UInt8, _ format: IssuerApplicationDataFormat, against version: CryptogramVersion
    ) throws(CryptoError) {
        guard version.issuerApplicationDataFormat == format else {
            throw CryptoError(.invalidParameter, "\(version) does not use the \(format) IAD layout")
        }
        guard number == version.number else {
            throw CryptoError(.invalidParameter, "IAD names CVN \(number), not \(version)'s \(version.number)")
        }
    }
}
