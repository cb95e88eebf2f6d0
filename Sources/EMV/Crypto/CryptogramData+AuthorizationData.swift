extension CryptogramData {
    /// Reads a cryptogram's input from the chip data of an authorization request (ISO 8583 field 55, or a
    /// kernel's online-request output): the ten common elements (9F02, 9F03, 9F1A, 95, 5F2A, 9A, 9C, 9F37, 82,
    /// 9F36) and the issuer application data (9F10) read in `version`'s layout.
    ///
    /// This is what an issuer host does before ``CardCryptograms/verifyAC(_:data:)``.
    /// - Throws: ``CryptoError/invalidParameter`` naming the first missing tag, and the errors of
    ///   ``init(version:amountAuthorized:amountOther:terminalCountryCode:terminalVerificationResults:transactionCurrencyCode:transactionDate:transactionType:unpredictableNumber:applicationInterchangeProfile:applicationTransactionCounter:issuerApplicationData:)``.
    public init(version: CryptogramVersion, authorizationData: TLVNodeCollection) throws(CryptoError) {
        func value(_ tag: Tag) throws(CryptoError) -> [UInt8] {
            guard let node = authorizationData.first(tag) else {
                throw CryptoError(.invalidParameter, "the authorization data has no \(tag) for the cryptogram")
            }
            return Array(node.value)
        }
        try self.init(
            version: version,
            amountAuthorized: value(.amountAuthorised),
            amountOther: authorizationData.first(.amountOther).map { Array($0.value) } ?? [UInt8](repeating: 0, count: 6),
            terminalCountryCode: value(.terminalCountryCode),
            terminalVerificationResults: value(.terminalVerificationResults),
            transactionCurrencyCode: value(.transactionCurrencyCode),
            transactionDate: value(.transactionDate),
            transactionType: value(.transactionType),
            unpredictableNumber: value(.unpredictableNumber),
            applicationInterchangeProfile: value(.applicationInterchangeProfile),
            applicationTransactionCounter: value(.applicationTransactionCounter),
            issuerApplicationData: value(.issuerApplicationData)
        )
    }
}
