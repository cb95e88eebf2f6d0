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
    /// the issuer master keys ``CardProfile/IssuerMasterKeys/withheld``, no mag-stripe mode (its CVC3 key would
    /// derive from an issuer master key).
    ///
    /// With offline data authentication, the ICC certificate is issued again over the new static data with the
    /// template's issuer key (the issuer's part of digitization), and the issuer key is then dropped from the
    /// profile. Personalise the result with ``personalize(limitedUseKeys:environment:)``.
    /// - Throws: ``CardEmulatorError/offlineDataAuthenticationFailed`` when the template has ODA but no issuer key
    ///   to certify the token's data with; ``CardEmulatorError`` for records that do not assemble.
    public func digitized(pan: PAN, expiry: ExpiryDate, panSequenceNumber: String) throws(CardEmulatorError)
        -> CardProfile
    {
        var profile = self
        profile.pan = pan.digits
        profile.expiry = String(format: "%04d-%02d", expiry.year, expiry.month)
        profile.panSequenceNumber = panSequenceNumber
        profile.magStripe = nil
        if var oda = profile.offlineDataAuthentication {
            guard oda.issuerPrivateKey != nil else {
                throw CardEmulatorError(
                    .offlineDataAuthenticationFailed, "the template has no issuer key to certify the token's data")
            }
            profile = try profile.certified()
            oda = profile.offlineDataAuthentication ?? oda
            oda.issuerPrivateKey = nil
            profile.offlineDataAuthentication = oda
        }
        profile.issuerMasterKeys = .withheld
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
