extension CardCryptograms {
    /// The issuer's keys for the card behind an authorization's chip data (field 55): the cryptogram version read
    /// from its IAD (9F10) in the layout of the scheme its AID (84, else 4F) names, and the card's keys derived from
    /// the issuer master keys and the request's PAN and PSN.
    /// - Throws: ``CryptoError/invalidParameter`` naming a missing IAD or AID, and the errors of
    ///   ``CryptogramVersion/init(issuerApplicationData:applicationIdentifier:)`` and
    ///   ``init(version:issuerMasterKeyAC:issuerMasterKeySMI:issuerMasterKeySMC:pan:psn:)``.
    public init(
        authorizationData: TLVNodeCollection, issuerMasterKeyAC: [UInt8], issuerMasterKeySMI: [UInt8],
        issuerMasterKeySMC: [UInt8], pan: String, psn: String? = nil
    ) throws(CryptoError) {
        guard let iad = authorizationData.first(.issuerApplicationData) else {
            throw CryptoError(.invalidParameter, "the authorization data has no \(Tag.issuerApplicationData)")
        }
        guard let aid = authorizationData.first(.dedicatedFileName) ?? authorizationData.first(.applicationIdentifier)
        else { throw CryptoError(.invalidParameter, "the authorization data has no AID (84 or 4F)") }
        try self.init(
            version: CryptogramVersion(issuerApplicationData: Array(iad.value), applicationIdentifier: aid.value),
            issuerMasterKeyAC: issuerMasterKeyAC, issuerMasterKeySMI: issuerMasterKeySMI,
            issuerMasterKeySMC: issuerMasterKeySMC, pan: pan, psn: psn)
    }

    /// Whether the application cryptogram (9F26) of an authorization's chip data verifies over that data, read with
    /// ``CryptogramData/init(version:authorizationData:)``: the issuer host's check of an ARQC.
    /// - Throws: ``CryptoError/invalidParameter`` naming a missing data object.
    public func verifyAC(authorizationData: TLVNodeCollection) throws(CryptoError) -> Bool {
        guard let cryptogram = authorizationData.first(.applicationCryptogram) else {
            throw CryptoError(.invalidParameter, "the authorization data has no \(Tag.applicationCryptogram)")
        }
        return try verifyAC(
            Array(cryptogram.value), data: CryptogramData(version: version, authorizationData: authorizationData))
    }
}
