public import EMV
import Foundation

extension CardProfile.IssuerMasterKeys {
    /// No keys: the profile of a wallet's card, whose issuer keeps its master keys and hands out limited-use keys
    /// only (``CardProfile/personalize(limitedUseKeys:environment:)``). Deriving keys from it fails.
    public static let withheld = CardProfile.IssuerMasterKeys(ac: [], smi: [], smc: [])

    /// Whether these are ``withheld``.
    public var isWithheld: Bool { ac.bytes.isEmpty && smi.bytes.isEmpty && smc.bytes.isEmpty && cvc3 == nil }
}

extension CardProfile {
    /// A wallet's card made from this profile as a template: the token's account data (DPAN, its expiry and PSN),
    /// the issuer master keys ``CardProfile/IssuerMasterKeys/withheld``, online only.
    ///
    /// Like Mastercard's cloud-based payment cards and Visa's cloud cards, a digitized card does no offline data
    /// authentication: a phone has no issuer-certified RSA key to protect, and every cryptogram goes online. So
    /// the profile loses its ODA data, the records' ODA objects (8F, 90, 92, 9F32, 9F46, 9F47, 9F48, 9F4A, 9F69)
    /// and the AIP's XDA, SDA, DDA and CDA bits; and its mag-stripe mode (its CVC3 key would derive from an issuer
    /// master key). Personalise the result with ``personalize(limitedUseKeys:environment:)``.
    /// - Throws: ``CardEmulatorError/invalidProfile`` when the AIP is not two bytes.
    public func digitized(pan: PAN, expiry: ExpiryDate, panSequenceNumber: String) throws(CardEmulatorError)
        -> CardProfile
    {
        var profile = self
        profile.pan = pan.digits
        profile.expiry = String(format: "%04d-%02d", expiry.year, expiry.month)
        profile.panSequenceNumber = panSequenceNumber
        profile.magStripe = nil
        profile.offlineDataAuthentication = nil
        profile.issuerMasterKeys = .withheld
        guard var aip = try? ApplicationInterchangeProfile(bytes: applicationInterchangeProfile.bytes) else {
            throw CardEmulatorError(.invalidProfile, "applicationInterchangeProfile must be 2 bytes")
        }
        aip.subtract([.xdaSupported, .sdaSupported, .ddaSupported, .cdaSupported])
        profile.applicationInterchangeProfile = HexBytes(aip.bytes)
        let odaTags: Set<String> = ["8F", "90", "92", "9F32", "9F46", "9F47", "9F48", "9F4A", "9F69"]
        profile.records = records.compactMap { record in
            let tags = record.tags.filter { !odaTags.contains($0.uppercased()) }
            guard !tags.isEmpty else { return nil }
            return Record(sfi: record.sfi, number: record.number, offlineDataAuthentication: false, tags: tags)
        }
        for tag in odaTags { profile.additionalData[tag] = nil }
        return profile
    }

    /// Personalises a card holding exactly `keys` (a digitized card's first batch from the issuer) and no master
    /// key: nothing is derived; more keys arrive with ``EmulatedCard/addKeys(_:)``.
    ///
    /// The issuer makes each key as the EMV common session key (R = ATC ‖ 00…00) of the card's ICC master key, as
    /// ``limitedUseKeys(atcs:validUntil:)`` does on the issuer's side, so the card's cryptograms verify there.
    /// - Throws: ``CardEmulatorError/invalidKey`` when a key is not 16 bytes or two keys share an ATC; the errors of
    ///   ``personalize(on:environment:)`` for the profile.
    public func personalize(
        limitedUseKeys keys: [LimitedUseKey], environment: CardEnvironment = .system
    ) throws(CardEmulatorError) -> EmulatedCard {
        guard keys.allSatisfy({ $0.sessionKey.count == 16 }) else {
            throw CardEmulatorError(.invalidKey, "a limited-use key must be a 16-byte session key")
        }
        guard Set(keys.map(\.atc)).count == keys.count else {
            throw CardEmulatorError(.invalidKey, "two limited-use keys share an ATC")
        }
        return EmulatedCard(image: try makeImage(), keys: keys, environment: environment)
    }
}
