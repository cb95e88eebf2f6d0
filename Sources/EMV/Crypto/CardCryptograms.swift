/// One card's application cryptograms and ARPCs under its cryptogram version: what pyemv 1.5.0's `cvn` classes
/// (`VisaCVN10`, `VisaCVN18`, …) do, for the card (generate) and the issuer (verify).
///
/// ```swift
/// let card = try CardCryptograms(version: .visa18, issuerMasterKeyAC: imkAC, issuerMasterKeySMI: imkSMI,
///                                issuerMasterKeySMC: imkSMC, pan: "4761739001010010", psn: "01")
/// let arqc = try card.generateAC(data)
/// let arpc = try card.generateARPC(arqc: arqc, atc: data.applicationTransactionCounter,
///                                  cardStatusUpdate: [0, 0, 0, 0])
/// ```
public struct CardCryptograms: Sendable, CustomStringConvertible {
    /// The cryptogram version.
    public let version: CryptogramVersion
    /// The card's ICC master keys.
    public let iccMasterKeys: ICCMasterKeys

    /// Uses a card's ICC master keys, as the card does.
    public init(version: CryptogramVersion, iccMasterKeys: ICCMasterKeys) {
        self.version = version
        self.iccMasterKeys = iccMasterKeys
    }

    /// Derives the card's ICC master keys with the version's option, as pyemv's
    /// `cvn.<Version>(iss_mk_ac, iss_mk_smi, iss_mk_smc, pan, psn)` does; an empty or missing PSN means `"00"`.
    /// - Throws: ``CryptoError/invalidKeyLength`` or ``CryptoError/invalidPAN`` as ``KeyDerivation`` does.
    public init(
        version: CryptogramVersion,
        issuerMasterKeyAC: [UInt8],
        issuerMasterKeySMI: [UInt8],
        issuerMasterKeySMC: [UInt8],
        pan: String,
        psn: String? = nil
    ) throws(CryptoError) {
        self.version = version
        iccMasterKeys = try ICCMasterKeys(
            issuerMasterKeyAC: issuerMasterKeyAC,
            issuerMasterKeySMI: issuerMasterKeySMI,
            issuerMasterKeySMC: issuerMasterKeySMC,
            pan: pan,
            psn: psn,
            option: version.masterKeyDerivation
        )
    }

    /// The AC session key for a transaction (the ICC master key where the version derives none).
    /// - Parameters:
    ///   - atc: The application transaction counter (tag 9F36).
    ///   - unpredictableNumber: The unpredictable number (tag 9F37), used by the Mastercard derivation only.
    public func acSessionKey(atc: [UInt8], unpredictableNumber: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        try sessionKey(version.acSessionKeyDerivation, atc: atc[...], unpredictableNumber: unpredictableNumber[...])
            .bytes
    }

    /// The key the ARPC is computed under for a transaction.
    /// - Parameters:
    ///   - atc: The application transaction counter (tag 9F36).
    ///   - unpredictableNumber: The unpredictable number (tag 9F37), used by the Mastercard derivation only.
    public func arpcSessionKey(atc: [UInt8], unpredictableNumber: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        try sessionKey(version.arpcSessionKeyDerivation, atc: atc[...], unpredictableNumber: unpredictableNumber[...])
            .bytes
    }

    /// Generates the application cryptogram (ARQC, TC or AAC): the version's session key, then
    /// ``ApplicationCryptogram`` over ``CryptogramData/bytes(for:)`` with the version's padding.
    ///
    /// Same as pyemv `cvn.<Version>.generate_ac(tag_9f02, …, tag_9f36, cvr | tag_9f10 [, counters])`.
    /// - Returns: The 8-byte cryptogram.
    /// - Throws: ``CryptoError/invalidFieldLength`` when the session key derivation gets an ATC (and UN) of the
    ///   wrong length.
    public func generateAC(_ data: CryptogramData) throws(CryptoError) -> [UInt8] {
        try generateAC(
            concatenatedData: data.bytes(for: version),
            atc: data.applicationTransactionCounter[...],
            unpredictableNumber: data.unpredictableNumber[...]
        )
    }

    /// ``generateAC(_:)`` over data elements already concatenated as ``CryptogramData/bytes(for:)`` does, for
    /// callers that hold them in one buffer; `atc` and `unpredictableNumber` are tags 9F36 and 9F37 again, for
    /// the session key.
    public func generateAC(
        concatenatedData data: [UInt8],
        atc: ArraySlice<UInt8>,
        unpredictableNumber: ArraySlice<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        let key = try sessionKey(version.acSessionKeyDerivation, atc: atc, unpredictableNumber: unpredictableNumber)
        return ApplicationCryptogram.mac(key, data: data, padding: version.padding)
    }

    /// Checks a card's cryptogram against the one computed from the same data (issuer side), in constant time.
    /// - Parameters:
    ///   - cryptogram: The cryptogram received (tag 9F26).
    ///   - data: The data the card used.
    /// - Returns: Whether the cryptogram matches.
    public func verifyAC(_ cryptogram: [UInt8], data: CryptogramData) throws(CryptoError) -> Bool {
        ApplicationCryptogram.constantTimeMatch(cryptogram, try generateAC(data))
    }

    /// Generates an ARPC of method 1, for every version but Visa CVN 18 and 22.
    ///
    /// Same as pyemv `cvn.<Version>.generate_arpc`: `(tag_9f26, arpc_rc)` for Visa CVN 10 and Mastercard CVN 16
    /// and 17, `(tag_9f26, tag_9f36, arpc_rc)` for Mastercard CVN 20 and 21, `(tag_9f26, tag_9f37, tag_9f36,
    /// arpc_rc)` for Interac CVN 133. Arguments the version does not use are ignored.
    /// - Parameters:
    ///   - arqc: The ARQC (tag 9F26), 8 bytes.
    ///   - atc: The ATC (tag 9F36), for versions whose ARPC key is a session key.
    ///   - unpredictableNumber: The unpredictable number (tag 9F37), for Interac CVN 133.
    ///   - responseCode: The 2-byte authorisation response code.
    /// - Returns: The 8-byte ARPC.
    /// - Throws: ``CryptoError/invalidParameter`` for a version that uses method 2;
    ///   ``CryptoError/invalidFieldLength`` for fields of the wrong length.
    public func generateARPC(
        arqc: [UInt8],
        atc: [UInt8] = [],
        unpredictableNumber: [UInt8] = [],
        responseCode: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let key = try arpcKey(for: .method1, atc: atc[...], unpredictableNumber: unpredictableNumber[...])
        return BigEndianBlock.bytes(try ARPC.method1Block(key, arqc: arqc, responseCode: responseCode))
    }

    /// Generates an ARPC of method 2, for Visa CVN 18 and 22.
    ///
    /// Same as pyemv `cvn.VisaCVN18.generate_arpc(tag_9f26, tag_9f36, csu, proprietary_auth_data)`.
    /// - Parameters:
    ///   - arqc: The ARQC (tag 9F26), 8 bytes.
    ///   - atc: The ATC (tag 9F36), 2 bytes.
    ///   - cardStatusUpdate: The 4-byte card status update.
    ///   - proprietaryAuthenticationData: Up to 8 bytes.
    /// - Returns: The 4-byte ARPC.
    /// - Throws: ``CryptoError/invalidParameter`` for a version that uses method 1;
    ///   ``CryptoError/invalidFieldLength`` for fields of the wrong length.
    public func generateARPC(
        arqc: [UInt8],
        atc: [UInt8],
        cardStatusUpdate: [UInt8],
        proprietaryAuthenticationData: [UInt8]? = nil
    ) throws(CryptoError) -> [UInt8] {
        let key = try arpcKey(for: .method2, atc: atc[...], unpredictableNumber: [])
        let block = try ARPC.method2Block(
            key,
            arqc: arqc,
            cardStatusUpdate: cardStatusUpdate,
            proprietaryAuthenticationData: proprietaryAuthenticationData
        )
        return BigEndianBlock.bytes(block, prefix: 4)
    }

    /// Checks an ARPC of method 1 (card side), in constant time.
    public func verifyARPC(
        _ arpc: [UInt8],
        arqc: [UInt8],
        atc: [UInt8] = [],
        unpredictableNumber: [UInt8] = [],
        responseCode: [UInt8]
    ) throws(CryptoError) -> Bool {
        let expected = try generateARPC(
            arqc: arqc, atc: atc, unpredictableNumber: unpredictableNumber, responseCode: responseCode
        )
        return ApplicationCryptogram.constantTimeMatch(arpc, expected, exactLength: true)
    }

    /// Checks an ARPC of method 2 (card side), in constant time.
    public func verifyARPC(
        _ arpc: [UInt8],
        arqc: [UInt8],
        atc: [UInt8],
        cardStatusUpdate: [UInt8],
        proprietaryAuthenticationData: [UInt8]? = nil
    ) throws(CryptoError) -> Bool {
        let expected = try generateARPC(
            arqc: arqc,
            atc: atc,
            cardStatusUpdate: cardStatusUpdate,
            proprietaryAuthenticationData: proprietaryAuthenticationData
        )
        return ApplicationCryptogram.constantTimeMatch(arpc, expected, exactLength: true)
    }

    /// Names the version only: keys never go to logs.
    public var description: String { "CardCryptograms(\(version), keys: <redacted>)" }

    /// The ARPC key, after checking the version uses `method`.
    private func arpcKey(
        for method: CryptogramVersion.ARPCMethod,
        atc: ArraySlice<UInt8>,
        unpredictableNumber: ArraySlice<UInt8>
    ) throws(CryptoError) -> DoubleLengthKey {
        guard version.arpcMethod == method else {
            throw CryptoError(.invalidParameter, "\(version) computes ARPCs with \(version.arpcMethod)")
        }
        return try sessionKey(version.arpcSessionKeyDerivation, atc: atc, unpredictableNumber: unpredictableNumber)
    }

    private func sessionKey(
        _ derivation: CryptogramVersion.SessionKeyDerivation,
        atc: ArraySlice<UInt8>,
        unpredictableNumber: ArraySlice<UInt8>
    ) throws(CryptoError) -> DoubleLengthKey {
        switch derivation {
        case .iccMasterKey:
            iccMasterKeys.acHalves
        case .common:
            SessionKey.common(iccMasterKeys.acHalves.schedule, r: try SessionKey.atcDiversification(atc))
        case .mastercard:
            SessionKey.common(
                iccMasterKeys.acHalves.schedule,
                r: try SessionKey.mastercardDiversification(atc: atc, unpredictableNumber: unpredictableNumber)
            )
        }
    }
}
