public import EMV
public import Foundation

extension CardProfile {
    /// The shipped Visa test card: qVSDC, CVN 18, fDDA under the Visa test CA (RID A000000003, index E1).
    public static var visaTest: CardProfile {
        get throws { try bundled("visa-test") }
    }

    /// The shipped Mastercard test card: M/Chip, CVN 20, CDA under the Mastercard test CA (RID A000000004, index E2),
    /// CDCVM.
    public static var mastercardTest: CardProfile {
        get throws { try bundled("mastercard-test") }
    }

    /// The shipped Mastercard mag-stripe-only test card (no EMV mode in its AIP; CVC3 by COMPUTE CRYPTOGRAPHIC
    /// CHECKSUM).
    public static var mastercardMagStripeTest: CardProfile {
        get throws { try bundled("mastercard-magstripe-test") }
    }

    /// The test CAs that issued the shipped profiles' issuer certificates, private keys included: test data only,
    /// never a payment system's CA.
    public static var testCertificateAuthorities: [TestCertificateAuthority] {
        get throws { try TestCertificateAuthorities(jsonData: resource("test-ca")).authorities }
    }

    /// The test CAs' public keys, the list a reader kernel is configured with to authenticate the test cards.
    public static var testCAPublicKeys: CAPublicKeyList {
        get throws { try CAPublicKeyList(testCertificateAuthorities.map(\.publicKey), provenance: "CardEmulator test CA") }
    }

    /// Reads a profile from JSON.
    public init(jsonData: Data) throws {
        self = try JSONDecoder().decode(CardProfile.self, from: jsonData)
    }

    /// The profile as readable JSON: pretty-printed, keys sorted.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    private static func bundled(_ name: String) throws -> CardProfile {
        try CardProfile(jsonData: resource(name))
    }

    static func resource(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Profiles") else {
            throw CardEmulatorError(.missingData, "the bundled resource \(name).json is missing")
        }
        return try Data(contentsOf: url)
    }
}
