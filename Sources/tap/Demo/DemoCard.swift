import ArgumentParser
import CardEmulator

/// The shipped test cards `tap demo --card` offers.
enum DemoCard: String, CaseIterable, ExpressibleByArgument {
    case visa
    case mastercard

    /// The card's personalisation profile.
    func profile() throws -> CardProfile {
        switch self {
        case .visa: try CardProfile.visaTest
        case .mastercard: try CardProfile.mastercardTest
        }
    }
}
