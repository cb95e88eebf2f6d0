import CardEmulator
import EMV
import Foundation

extension DigitalCardRecord {
    /// Data objects of offline data authentication, which a wallet card cannot carry without the issuer's key.
    static let offlineDataAuthenticationTags: Set<String> = [
        "8F", "90", "92", "9F32", "9F46", "9F47", "9F48", "9F49", "9F4A", "9F69",
    ]

    /// The card profile of this token: the scheme's bundled test profile with the DPAN, expiry and PSN, no issuer
    /// master keys (zeros: the card holds session keys only), no precomputed keys, and no offline data
    /// authentication (the ICC certificate would need the issuer's private key): an online-only token.
    func profile() throws -> CardProfile {
        var profile = scheme == .visa ? try CardProfile.visaTest : try CardProfile.mastercardTest
        profile.name = "\(profile.name) — wallet token"
        profile.pan = dpan
        profile.expiry = expiry
        profile.panSequenceNumber = panSequenceNumber
        profile.issuerMasterKeys = CardProfile.IssuerMasterKeys(
            ac: HexBytes([UInt8](repeating: 0, count: 16)), smi: HexBytes([UInt8](repeating: 0, count: 16)),
            smc: HexBytes([UInt8](repeating: 0, count: 16)))
        profile.limitedUseKeys.count = 0
        profile.offlineDataAuthentication = nil
        profile.records = profile.records.compactMap { record in
            var record = record
            record.tags.removeAll { Self.offlineDataAuthenticationTags.contains($0.uppercased()) }
            record.offlineDataAuthentication = false
            return record.tags.isEmpty ? nil : record
        }
        if let aip = try? ApplicationInterchangeProfile(bytes: profile.applicationInterchangeProfile.bytes) {
            profile.applicationInterchangeProfile = HexBytes(
                aip.subtracting([.sdaSupported, .ddaSupported, .cdaSupported, .xdaSupported]).bytes)
        }
        return profile
    }

    /// The token's card applet, holding its unspent payment keys and its wallet transaction data.
    func makeCard(environment: CardEnvironment) throws(CardEmulatorError) -> EmulatedCard {
        let profile: CardProfile
        do {
            profile = try self.profile()
        } catch let error as CardEmulatorError {
            throw error
        } catch {
            throw CardEmulatorError(code: .missingData, message: "the scheme's card profile template is missing")
        }
        var card = try profile.personalize(on: environment.now(), environment: environment)
        let keys = usableKeys(at: environment.now())
        if !keys.isEmpty { try card.addKeys(keys) }
        return card
    }
}
