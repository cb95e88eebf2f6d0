import ArgumentParser
import EMV
import Foundation

extension Tap {
    /// Runs the main job on embedded defaults.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "A merchant checkout on Tap to Pay, in process: test card, reader, PSP gateway, issuer host.",
            discussion: """
                Starts a gateway in this process (SQLite in a temporary directory, the issuer host with the test \
                cards), onboards a merchant and runs a checkout the way a point-of-sale app does with TapToPay: the \
                merchant's admin links the account, the reader prepares (with progress the first time), the customer \
                taps the test card, the merchant's server authorizes the sealed read at the PSP, and the result and a \
                receipt are shown. --pin takes a card whose issuer asks for the PIN online (the test PIN is entered on \
                the reader's PIN pad); --decline one the issuer declines, with what the merchant can offer instead. \
                --loyalty puts a coffee shop's loyalty pass on the customer's phone beside the card: one tap reads \
                both (Apple VAS, then the payment), and the merchant's server decrypts the member id with the \
                shop's key before it authorizes the payment.

                --kernel shows the layer below instead: the card applet and the EMV kernel over the loopback, each \
                APDU decoded (card data masked), the kernel's decisions and the issuer's check of the ARQC.
                """
        )

        @Option(help: "The test card to tap: \(DemoCard.allCases.map(\.rawValue).joined(separator: ", ")).")
        var card: DemoCard = .visa
        @Option(help: "Amount in major units, e.g. 12.34.") var amount: String = "12.34"
        @Option(help: "ISO 4217 currency, alphabetic or numeric.") var currency: String = "EUR"
        @Flag(help: "Walk the online-PIN path: the issuer asks for the PIN after the tap.") var pin = false
        @Flag(help: "Walk a decline (insufficient funds) and the alternatives the merchant can offer.")
        var decline = false
        @Flag(help: "The customer's phone also carries the shop's loyalty pass, read in the same tap.")
        var loyalty = false
        @Flag(help: "Print the checkout (or with --kernel the transaction) as JSON.") var json = false
        @Flag(help: "Show the card and EMV kernel over the loopback instead of the merchant checkout.")
        var kernel = false
        @Flag(
            inversion: .prefixedNo,
            help: "With --kernel: whether the wallet verified the cardholder on the phone before the tap.")
        var cdcvm = true
        @Flag(help: "With --kernel: also print each exchange's raw bytes (card data masked).") var trace = false
        @Flag(
            inversion: .prefixedNo,
            help: "With --kernel: whether an online request goes on to a gateway in this process.")
        var gateway = true

        func validate() throws {
            if pin && decline { throw ValidationError("--pin and --decline are two different checkouts: pick one") }
            if kernel && (pin || decline || loyalty) {
                throw ValidationError("--pin, --decline and --loyalty are checkouts, not --kernel")
            }
        }

        func run() async throws {
            let amount = try Amount(argument: amount, currency: currency)
            if kernel { return try await runKernel(amount) }
            let path: Checkout.Path = pin ? .onlinePIN : decline ? .decline : .approval
            let style = ConsoleStyle.forStandardOutput()
            let json = json
            if !json { print(CheckoutReport.title(path: path, style: style)) }
            let checkout = Checkout(card: card, amount: amount, path: path, loyalty: loyalty) { step in
                if !json, let line = step.line(style: style) { print(line) }
            }
            let report = try await checkout.run()
            if json { try printJSON(report) } else { print(report.text(style: style)) }
            // The story must end as told: approved (after the PIN on the PIN path), or declined.
            let expected = path == .decline ? "declined" : "succeeded"
            if report.authorization.status != expected || (path == .onlinePIN && report.pin == nil)
                || (loyalty && report.loyalty?.memberId == nil)
            {
                throw ExitCode(1)
            }
        }

        private func runKernel(_ amount: Amount) async throws {
            let purchase = DemoPurchase(
                card: card, amount: amount, cardholderVerifiedOnPhone: cdcvm, throughGateway: gateway)
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
