import ApplePay
import ArgumentParser
import EMV
import Foundation

extension Tap.ApplePayCommand {
    /// Validates a payment request's JSON form against every PassKit rule.
    struct ApplePayRequestCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request",
            abstract: "Check an Apple Pay payment request (PKPaymentRequest as JSON).",
            discussion: """
                Reads the JSON form of ApplePay.PaymentRequest (see Examples/ApplePay/payment-request.json) and \
                prints "valid" with a summary, or the broken rule's error code and message and exits 1. \
                PassKit's rules by default; --strict also requires the total to equal the sum of the items.
                """
        )

        @Option(name: .customLong("validate"), help: "The payment request JSON file to validate.")
        var file: String

        @Flag(help: "Also require the total to equal the sum of the items before it (PassKit does not).")
        var strict = false

        func run() throws {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure("cannot read \(file)")
            }
            do {
                let request = try PaymentRequest(json: data)
                try request.validate(strict ? .strict : .passKit)
                print("valid")
                print(Self.summary(request))
            } catch {
                print("invalid: \(error.code): \(error.message)")
                throw ExitCode(1)
            }
        }

        static func summary(_ request: PaymentRequest) -> String {
            let total = (try? request.totalAmount().formatted) ?? "-"
            var lines = [
                ("merchant", request.merchantIdentifier),
                ("country", request.countryCode),
                ("total", "\(total)\(request.total?.type == .pending ? " (pending)" : "")"),
                ("items", "\(request.paymentSummaryItems.count - 1) + total"),
                ("networks", request.supportedNetworks.map(\.rawValue).joined(separator: ", ")),
                ("capabilities", request.merchantCapabilities.names.joined(separator: ", ")),
            ]
            if !request.shippingMethods.isEmpty {
                lines.append(("shipping", request.shippingMethods.map(\.identifier).joined(separator: ", ")))
            }
            let kind =
                if request.recurringPaymentRequest != nil {
                    "recurring"
                } else if request.automaticReloadPaymentRequest != nil {
                    "automatic reload"
                } else if request.deferredPaymentRequest != nil {
                    "deferred"
                } else if !request.multiTokenContexts.isEmpty {
                    "multi-token (\(request.multiTokenContexts.count))"
                } else { "single payment" }
            lines.append(("type", kind))
            return lines.map { "  \($0.0.padding(toLength: 13, withPad: " ", startingAt: 0))\($0.1)" }
                .joined(separator: "\n")
        }
    }
}
