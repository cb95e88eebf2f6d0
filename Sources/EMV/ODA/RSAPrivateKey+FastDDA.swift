// Visa's fDDA signature (EMV Contactless Book C-3, annex C): the DDA layout of EMV Book 2, table 17, under signed data
// format '95' instead of '05', as real Visa cards sign it (see SignedDynamicApplicationData.fDDAFormat).
extension RSAPrivateKey {
    /// As a Visa contactless card: signs the fDDA dynamic data returned in the GET PROCESSING OPTIONS response (tag
    /// 9F4B), with signed data format '95'.
    ///
    /// The terminal opens it with ``SignedDynamicApplicationData/init(recovering:with:format:)`` and
    /// ``SignedDynamicApplicationData/fDDAFormat``, then checks it against the same terminal dynamic data.
    ///
    /// - Parameters:
    ///   - iccDynamicNumber: the ICC Dynamic Number, 2 to 8 bytes (Visa cards use their ATC).
    ///   - terminalDynamicData: the fDDA input, from
    ///     ``SignedDynamicApplicationData/fDDATerminalDynamicData(unpredictableNumber:amountAuthorised:transactionCurrencyCode:cardAuthenticationRelatedData:)``.
    /// - Throws: ``ODAError/invalidInput`` when the dynamic number is not 2 to 8 bytes or does not fit.
    public func signFastDynamicApplicationData(iccDynamicNumber: [UInt8], terminalDynamicData: [UInt8]) throws
        -> [UInt8]
    {
        try signDynamicData(
            format: SignedDynamicApplicationData.fDDAFormat,
            iccDynamicData: SignedDynamicApplicationData.iccDynamicData(dynamicNumber: iccDynamicNumber),
            terminalDynamicData: terminalDynamicData)
    }

    /// Table 17's block: hash algorithm | L_DD | ICC dynamic data | 'BB' padding, signed under `format`.
    func signDynamicData(format: UInt8, iccDynamicData: [UInt8], terminalDynamicData: [UInt8]) throws -> [UInt8] {
        guard iccDynamicData.count <= modulusLength - 25 else {
            throw ODAError(.invalidInput, "ICC dynamic data does not fit a \(modulusLength)-byte signature")
        }
        let padding = SignedDataFrame.padding(modulusLength - 25 - iccDynamicData.count)
        return try SignedDataFrame.sign(
            format: format,
            data: [SignedDataFrame.sha1Indicator, UInt8(iccDynamicData.count)] + iccDynamicData + padding,
            extra: [terminalDynamicData],
            with: self
        )
    }
}
