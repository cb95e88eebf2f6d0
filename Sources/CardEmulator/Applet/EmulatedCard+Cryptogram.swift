import EMV

// The pieces every cryptogram shares: the card verification results inside the issuer application data, and the
// application cryptogram computed under the transaction's limited-use key.
extension EmulatedCard {
    /// What the card reports about this transaction in its CVR.
    struct Verification {
        var first: FirstGenerateACCryptogramType
        var second: SecondGenerateACCryptogramType = .notRequested
        var cdaInFirst = false
        var cdaInSecond = false
        var fastDDAPerformed = false
        /// First two bytes of the ICC dynamic number, which M/Chip's IAD carries with CDA.
        var dynamicNumberPrefix: UInt16 = 0
        var terminalCountryCode: [UInt8] = []
    }

    /// The issuer application data (tag 9F10) in the cryptogram version's layout.
    func issuerApplicationData(_ verification: Verification) throws -> [UInt8] {
        let version = image.cryptogramVersion
        switch version.issuerApplicationDataFormat {
        case .visa:
            var cvr = VisaCardVerificationResults()
            cvr.firstGenerateAC = verification.first
            cvr.secondGenerateAC = verification.second
            if verification.fastDDAPerformed { cvr.insert(.ddaPerformed) }
            if transaction.offlinePINVerified { cvr.insert(.offlinePINVerificationPerformed) }
            if transaction.offlinePINFailed {
                cvr.formUnion([.offlinePINVerificationPerformed, .offlinePINVerificationFailed])
            }
            if image.offlinePINDigits != nil, pinTriesRemaining == 0 { cvr.insert(.pinTryLimitExceeded) }
            return try VisaIssuerApplicationData(
                derivationKeyIndex: image.derivationKeyIndex, cryptogramVersionNumber: version.number,
                cardVerificationResults: cvr
            ).bytes
        default:
            var cvr = MastercardCardVerificationResults()
            cvr.firstGenerateAC = verification.first
            cvr.secondGenerateAC = verification.second
            if verification.cdaInFirst { cvr.insert(.cdaReturnedInFirstGenerateAC) }
            if verification.cdaInSecond { cvr.insert(.cdaReturnedInSecondGenerateAC) }
            if transaction.offlinePINVerified {
                cvr.formUnion([.offlinePINVerificationPerformed, .offlinePINVerificationSuccessful])
            } else if transaction.offlinePINFailed {
                cvr.formUnion([.offlinePINVerificationPerformed, .offlinePINVerificationFailed])
            } else {
                cvr.insert(.offlinePINVerificationNotPerformed)
            }
            if image.offlinePINDigits != nil {
                cvr.pinTryCounter = pinTriesRemaining & 0x0F
                if pinTriesRemaining == 0 { cvr.insert(.pinTryLimitExceeded) }
            }
            cvr.insert(
                verification.terminalCountryCode == image.issuerCountryCode
                    ? .domesticTransaction : .internationalTransaction)
            return try MastercardIssuerApplicationData(
                derivationKeyIndex: image.derivationKeyIndex, cryptogramVersionNumber: version.number,
                cardVerificationResults: cvr, dataAuthenticationCode: verification.dynamicNumberPrefix,
                additionalData: walletTransactionData
            ).bytes
        }
    }

    /// The application cryptogram over the terminal's data, the AIP, the ATC and the IAD, under the key's session
    /// key: what the issuer recomputes with `CardCryptograms.verifyAC`.
    func applicationCryptogram(key: LimitedUseKey, terminal: TerminalData, issuerApplicationData: [UInt8]) throws
        -> [UInt8]
    {
        var data = terminal.cryptogramData(aip: image.applicationInterchangeProfile.bytes, atc: key.atcBytes)
        try data.setIssuerApplicationData(issuerApplicationData, for: image.cryptogramVersion)
        return try ApplicationCryptogram.generate(
            sessionKey: key.sessionKey, data: data.bytes(for: image.cryptogramVersion),
            padding: image.cryptogramVersion.padding)
    }

    /// The Cryptogram Information Data (tag 9F27) for a cryptogram type.
    static func cryptogramInformationData(_ type: FirstGenerateACCryptogramType) -> UInt8 {
        switch type {
        case .arqc: 0x80
        case .tc: 0x40
        default: 0x00
        }
    }
}
