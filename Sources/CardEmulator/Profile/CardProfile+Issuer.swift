public import EMV

extension CardProfile {
    /// The issuer's side of a card made from this profile: whether an application cryptogram in an authorization's
    /// chip data (field 55) verifies under the profile's issuer master keys — never the card's own stored keys —
    /// as the issuer host will check it: the cryptogram version from the IAD and the AID (84 or 4F), the card's
    /// keys from the issuer master keys and the PAN and PSN of the request, the AC data from field 55.
    ///
    /// - Parameters:
    ///   - authorizationData: the field-55 data objects (9F26, 9F10, 84, 9F36, 9F37, 9F02, ...).
    ///   - pan: the PAN the authorization carries, digits only.
    ///   - panSequenceNumber: its PSN as two digits, nil when the card has none.
    /// - Returns: false when the cryptogram does not verify.
    /// - Throws: ``CardEmulatorError`` naming a missing data object, and `CryptoError` for data of the wrong layout.
    public func issuerVerifiesCryptogram(
        inAuthorizationData authorizationData: TLVNodeCollection, pan: String, panSequenceNumber: String?
    ) throws -> Bool {
        // A missing object is the caller's data at fault: say which, in this module's terms.
        for tag: Tag in [.applicationCryptogram, .issuerApplicationData]
        where authorizationData.first(tag) == nil {
            throw CardEmulatorError(.missingData, "the authorization data has no \(tag)")
        }
        if authorizationData.first(.dedicatedFileName) == nil, authorizationData.first(.applicationIdentifier) == nil {
            throw CardEmulatorError(.missingData, "the authorization data has no \(Tag.applicationIdentifier)")
        }
        let issuer = try CardCryptograms(
            authorizationData: authorizationData, issuerMasterKeyAC: issuerMasterKeys.ac.bytes,
            issuerMasterKeySMI: issuerMasterKeys.smi.bytes, issuerMasterKeySMC: issuerMasterKeys.smc.bytes,
            pan: pan, psn: panSequenceNumber)
        return try issuer.verifyAC(authorizationData: authorizationData)
    }
}
