import ArgumentParser
import CardEmulator
import EMV
import Foundation

/// The keys a PC/SC purchase is checked with: the CA public keys the kernel authenticates cards with, and the test
/// profile whose issuer master keys verify the ARQC (`--issuer-profile`).
enum CardKeys {
    /// The test CAs' public keys, plus those of `--ca-keys FILE` (a `CAPublicKeyList` JSON file) when given.
    ///
    /// EMV ships no payment system's production CA keys, so a real card on a real reader passes offline data
    /// authentication only with a list from the acquirer given here; without it the kernel still reaches an
    /// online request (ODA is reported as failed or not performed).
    static func caPublicKeys(adding path: String?) throws -> CAPublicKeyList {
        var keys = try CardProfile.testCAPublicKeys
        guard let path else { return keys }
        let extra = try CAPublicKeyList(contentsOf: URL(fileURLWithPath: path))
        for key in extra.keys { try keys.insert(key) }
        return keys
    }

    /// `visa` and `mastercard` are the shipped test profiles; anything else is a profile JSON file.
    static func issuerProfile(_ argument: String) throws -> CardProfile {
        if let shipped = DemoCard(rawValue: argument.lowercased()) { return try shipped.profile() }
        let url = URL(fileURLWithPath: argument)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ValidationError("--issuer-profile: '\(argument)' is neither visa, mastercard nor a profile file")
        }
        return try CardProfile(jsonData: Data(contentsOf: url))
    }
}
