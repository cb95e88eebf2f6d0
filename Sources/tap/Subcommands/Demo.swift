import ArgumentParser
import EMV
import Foundation

extension Tap {
    /// Runs the main job on embedded defaults.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Walk through an EMV contactless purchase on embedded defaults (test keys, a real card's data)."
        )

        @Option(help: "Amount in major units, e.g. 12.34.") var amount: String = "12.34"
        @Option(help: "ISO 4217 currency, alphabetic or numeric.") var currency: String = "EUR"
        @Option(help: "ISO 3166 terminal country, alpha-2, alpha-3 or numeric.") var country: String = "DE"
        @Option(help: "Application transaction counter to use.") var atc: UInt16 = 1

        func run() async throws {
            guard let currency = Currency(alphabeticCode: currency.uppercased())
                ?? Int(currency).flatMap(Currency.init(numericCode:))
            else { throw ValidationError("unknown currency '\(currency)'") }
            guard let country = Country(alpha2: country.uppercased()) ?? Country(alpha3: country.uppercased())
                ?? Int(country).flatMap(Country.init(numericCode:))
            else { throw ValidationError("unknown country '\(country)'") }
            guard let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")), value > 0 else {
                throw ValidationError("amount must be a positive decimal number, e.g. 12.34")
            }
            var random = SystemRandomNumberGenerator()
            let walkthrough = EMVWalkthrough(
                amount: try Amount(value, currency: currency),
                country: country,
                date: try EMVDate(Date(), timeZone: .current),
                atc: atc,
                unpredictableNumber: (0..<4).map { _ in random.next() }
            )
            print("Contactless demo: an EMV walkthrough (card, reader and issuer arithmetic on test keys).")
            try walkthrough.run { print($0) }
        }
    }
}
