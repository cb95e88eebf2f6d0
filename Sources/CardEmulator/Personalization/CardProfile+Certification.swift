import EMV

extension CardProfile {
    /// The profile with its ICC certificate (and remainder) computed over its static data by the issuer key it
    /// carries: run after editing records or the PAN of a profile with offline data authentication.
    /// - Throws: ``CardEmulatorError`` when the profile has no issuer private key or its records do not assemble.
    public func certified() throws(CardEmulatorError) -> CardProfile {
        guard var oda = offlineDataAuthentication else { return self }
        var profile = self
        oda.iccCertificate = nil
        oda.iccRemainder = nil
        profile.offlineDataAuthentication = oda
        let issued = try profile.certifyICCKey(oda, staticData: try profile.staticDataToBeAuthenticated())
        oda.iccCertificate = HexBytes(issued.certificate)
        oda.iccRemainder = HexBytes(issued.remainder)
        profile.offlineDataAuthentication = oda
        return profile
    }
}
