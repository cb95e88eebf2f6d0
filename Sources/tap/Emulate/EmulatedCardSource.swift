import ArgumentParser
import CardEmulator
import Foundation

/// The card `tap emulate --card` personalises: a shipped test profile by name, or a profile JSON file.
enum EmulatedCardSource: ExpressibleByArgument, CustomStringConvertible {
    case visa
    case mastercard
    case mastercardMagStripe
    case file(String)

    /// The names of the shipped profiles, as `--card` takes them.
    static let shippedNames = ["visa", "mastercard", "mastercard-magstripe"]

    init?(argument: String) {
        switch argument {
        case "visa": self = .visa
        case "mastercard": self = .mastercard
        case "mastercard-magstripe": self = .mastercardMagStripe
        case "": return nil
        default: self = .file(argument)
        }
    }

    /// The argument as `--card` takes it (help shows the default this way).
    var defaultValueDescription: String {
        switch self {
        case .visa: "visa"
        case .mastercard: "mastercard"
        case .mastercardMagStripe: "mastercard-magstripe"
        case .file(let path): path
        }
    }

    /// What the card is, for the start-up line.
    var description: String {
        switch self {
        case .visa: "Visa test card"
        case .mastercard: "Mastercard test card"
        case .mastercardMagStripe: "Mastercard mag-stripe test card"
        case .file(let path): "card profile \((path as NSString).lastPathComponent)"
        }
    }

    /// Reads the profile.
    func profile() throws -> CardProfile {
        switch self {
        case .visa: return try CardProfile.visaTest
        case .mastercard: return try CardProfile.mastercardTest
        case .mastercardMagStripe: return try CardProfile.mastercardMagStripeTest
        case .file(let path):
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw EmulateError("cannot read the card profile '\(path)': \(error.localizedDescription)")
            }
            do {
                return try CardProfile(jsonData: data)
            } catch {
                throw EmulateError("'\(path)' is not a card profile: \(error)")
            }
        }
    }
}
