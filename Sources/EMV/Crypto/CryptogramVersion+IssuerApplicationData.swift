extension CryptogramVersion {
    /// The registered application provider identifiers whose IAD layouts this type reads.
    private static let visaRID: [UInt8] = [0xA0, 0x00, 0x00, 0x00, 0x03]
    private static let mastercardRID: [UInt8] = [0xA0, 0x00, 0x00, 0x00, 0x04]

    /// The version a card used, read from its issuer application data (9F10) in the layout of the scheme that owns
    /// the application identifier (its first five bytes, the RID): Visa's CVN sits after the DKI (formats 0, 1, 3)
    /// or first (format 2), Mastercard's after the DKI.
    /// - Throws: ``CryptoError/invalidParameter`` for another scheme's RID or a CVN this type does not know, and
    ///   ``CryptoError/invalidFieldLength`` for an IAD too short for the scheme's layout.
    public init(issuerApplicationData: [UInt8], applicationIdentifier: some Collection<UInt8>) throws(CryptoError) {
        let rid = Array(applicationIdentifier.prefix(5))
        let number: UInt8
        switch rid {
        case Self.visaRID: number = try IssuerApplicationData(visa: issuerApplicationData).cryptogramVersionNumber
        case Self.mastercardRID:
            number = try IssuerApplicationData(mastercard: issuerApplicationData).cryptogramVersionNumber
        default: throw CryptoError(.invalidParameter, "no IAD layout known for RID \(rid.hexString)")
        }
        let schemeVersions: [CryptogramVersion] =
            rid == Self.visaRID ? [.visa10, .visa18, .visa22] : [.mastercard16, .mastercard17, .mastercard20, .mastercard21]
        guard let version = schemeVersions.first(where: { $0.number == number }) else {
            throw CryptoError(.invalidParameter, "cryptogram version number \(number) is not supported for this scheme")
        }
        self = version
    }
}
