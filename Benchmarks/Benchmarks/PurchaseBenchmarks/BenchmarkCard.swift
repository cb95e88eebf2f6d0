import CardEmulator

/// The shipped test cards, each with the offline data authentication its kernel uses.
enum BenchmarkCard: CaseIterable {
    case visa
    case mastercard

    var title: String {
        switch self {
        case .visa: "Visa (C-3, fDDA)"
        case .mastercard: "Mastercard (C-2, CDA)"
        }
    }

    func profile() throws -> CardProfile {
        switch self {
        case .visa: try CardProfile.visaTest
        case .mastercard: try CardProfile.mastercardTest
        }
    }
}
