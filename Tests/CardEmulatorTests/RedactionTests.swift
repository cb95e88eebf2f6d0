import CardEmulator
import EMV
import Foundation
import Testing

/// Nothing the module prints (descriptions, dumps, error messages) carries the PAN, track 2 or key material.
@Suite struct RedactionTests {
    /// Strings that must not appear: PANs, track 2 and key bytes in hex (as JSON and dumps would show them).
    static func secrets(_ profile: CardProfile) throws -> [String] {
        var secrets = [profile.pan, String(profile.pan.dropFirst(6).prefix(6))]
        secrets += [profile.issuerMasterKeys.ac, profile.issuerMasterKeys.smi, profile.issuerMasterKeys.smc]
            .map(\.bytes.hexString)
        if let oda = profile.offlineDataAuthentication {
            secrets.append(String(try oda.iccPrivateKey.jsonString(key: "prime1").prefix(16)))
        }
        return secrets
    }

    static func printed(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped]
    }

    @Test func cardsProfilesKeysAndErrorsPrintNoCardData() throws {
        for profile in [
            try CardProfile.visaTest, try CardProfile.mastercardTest, try CardProfile.mastercardMagStripeTest,
        ] {
            var card = try Fixtures.card(profile)
            _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
            #expect(card.maskedPAN.hasSuffix(String(profile.pan.suffix(4))) && !card.maskedPAN.contains(profile.pan))
            let key = try profile.limitedUseKeys(atcs: 1...1, validUntil: Fixtures.personalisationDate)[0]
            var texts =
                Self.printed(card) + Self.printed(profile) + Self.printed(profile.issuerMasterKeys)
                + Self.printed(key) + Self.printed(profile.issuerMasterKeys.ac)
            if let oda = profile.offlineDataAuthentication { texts += Self.printed(oda) }
            if let magStripe = profile.magStripe { texts += Self.printed(magStripe) }
            var broken = profile
            broken.records[0].tags.append("9F4D")
            do {
                _ = try Fixtures.card(broken)
            } catch {
                texts += Self.printed(error)
            }
            broken = profile
            let wrongCertificate = broken.offlineDataAuthentication?.issuerCertificate
            broken.offlineDataAuthentication?.iccCertificate = wrongCertificate
            if let error = (Result { try Fixtures.card(broken) }).failure { texts += Self.printed(error) }
            // Field names of secret values must not show either: dumps print bytes in decimal.
            let secrets =
                try Self.secrets(profile) + [
                    key.sessionKey.hexString, "sessionKey", "PrivateKey", "prime", "track", "bytes:",
                ]
            for text in texts {
                for secret in secrets {
                    #expect(!text.contains(secret), "printed value shows card data")
                }
            }
        }
    }
}

extension RSAPrivateKey {
    /// One field of the key's JSON, to look for private parts in printed text.
    func jsonString(key: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: String]
        return object?[key] ?? "unreachable-marker"
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
