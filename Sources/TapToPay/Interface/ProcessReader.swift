import CardEmulator
import Crypto
import EMV
import Foundation
import SmartCard

/// The contactless interface a process has, from the environment variable `CONTACTLESS_READER`: what
/// `PaymentCardReader()` reads with, as an iPhone reads with its NFC controller.
///
/// - `loopback:visa`, `loopback:mastercard`: the shipped test card of that scheme always in the field (its
///   approving account at the test issuer); `loopback:PROFILE.json` a card profile of one's own. Its PIN pad
///   enters the test cards' PIN, 1234.
/// - `pcsc:NAME`: the PC/SC reader of that name (a USB NFC reader through pcscd, or vpcd's); `pcsc:` the first one.
///
/// Unset, or naming something unusable: no interface, so `PaymentCardReader.isSupported` is false.
enum ProcessReader {
    /// The environment variable.
    static let variable = "CONTACTLESS_READER"

    /// The interface `CONTACTLESS_READER` names in `environment`; nil when it names none that works here.
    static func interface(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (any ContactlessInterface)? {
        guard let value = environment[variable], let colon = value.firstIndex(of: ":") else { return nil }
        let kind = value[..<colon]
        let argument = String(value[value.index(after: colon)...])
        switch kind {
        case "loopback":
            return try? TestCardInterface(profile: profile(argument))
        case "pcsc":
            return try? PCSCInterface(readerName: argument.isEmpty ? nil : argument)
        default:
            return nil
        }
    }

    /// The device's id at the PSP: `CONTACTLESS_DEVICE_ID`, else one derived from the machine's id, stable
    /// across runs (letters, digits and `-` only).
    static func deviceID(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let id = environment["CONTACTLESS_DEVICE_ID"], !id.isEmpty { return id }
        let machine =
            (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))
            ?? ProcessInfo.processInfo.hostName
        let digest = SHA256.hash(data: Array(machine.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
        return "device-" + Array(digest).prefix(8).hexString.lowercased()
    }

    private static func profile(_ argument: String) throws -> CardProfile {
        switch argument {
        case "visa": try CardProfile.visaTest
        case "mastercard": try CardProfile.mastercardTest
        default: try CardProfile(jsonData: Data(contentsOf: URL(fileURLWithPath: argument)))
        }
    }
}

/// One personalised test card always in the field: each wait for a card gets it afresh (as if tapped again), its
/// ATC going up with each tap like a real card's. The PIN pad enters the test cards' PIN.
final class TestCardInterface: ContactlessInterface {
    private let channel: LoopbackChannel<EmulatedCard>

    init(profile: CardProfile) throws {
        channel = LoopbackChannel(applet: try profile.certified().personalize(on: Date()))
    }

    func waitForCard() async throws -> any CardChannel {
        try Task.checkCancellation()
        await channel.presentCard()
        return channel
    }

    func enterPIN(_ request: PINEntryRequest) async -> PINEntry { .entered("1234") }
}
