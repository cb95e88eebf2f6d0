import ArgumentParser
import EMV
import Foundation

extension Tap {
    /// Runs the main job on embedded defaults.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tap a test card on the EMV reader kernel, in process, and check the cryptogram at the issuer.",
            discussion: """
                Personalises the shipped Visa or Mastercard test card, runs a contactless purchase between the card \
                applet and the reader kernel over the in-process loopback, and prints each APDU decoded (card data \
                masked), the kernel's decisions, the outcome, and whether the ARQC verifies under the issuer master key. \
                An online request then goes to a gateway started in this process (SQLite in a temporary directory): \
                the reader seals the card data to the PSP's key from prepare, the gateway opens it, authorises it \
                with the issuer host over ISO 8583 and answers with the payment (--no-gateway stops at the reader).
                """
        )

        @Option(help: "The test card to tap: \(DemoCard.allCases.map(\.rawValue).joined(separator: ", ")).")
        var card: DemoCard = .visa
        @Option(help: "Amount in major units, e.g. 12.34.") var amount: String = "12.34"
        @Option(help: "ISO 4217 currency, alphabetic or numeric.") var currency: String = "EUR"
        @Flag(inversion: .prefixedNo, help: "Whether the wallet verified the cardholder on the phone before the tap.")
        var cdcvm = true
        @Flag(help: "Also print each exchange's raw bytes (card data masked).") var trace = false
        @Flag(
            inversion: .prefixedNo,
            help: "Whether an online request goes on to a gateway in this process (SQLite in a temporary directory).")
        var gateway = true
        @Flag(help: "Print the transaction as JSON.") var json = false

        func run() async throws {
            let purchase = DemoPurchase(
                card: card, amount: try Amount(argument: amount, currency: currency), cardholderVerifiedOnPhone: cdcvm,
                throughGateway: gateway)
            let report = try await purchase.run()
            if json {
                try printJSON(report)
            } else {
                print(report.text(style: .forStandardOutput(), trace: trace))
            }
            // The demo exists to show that our card's cryptograms verify: anything else is a failure.
            if report.arqcVerified == false || report.tamperedAmountRejected == false { throw ExitCode(1) }
            // An approving test card must be approved by the gateway's issuer.
            if let gateway = report.gateway, gateway.status != "succeeded" { throw ExitCode(1) }
        }
    }
}
