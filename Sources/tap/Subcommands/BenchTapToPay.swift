import ArgumentParser
import EMV
import Foundation
import GatewayAPI
import Issuer
import Logging
import TapToPay
import TestMode

extension Tap.Bench {
    /// Purchases end to end through the merchant SDK: tap → read → the merchant's server authorizes at the PSP.
    struct TapToPayPurchases: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "taptopay",
            abstract: "Time purchases through TapToPay, tap to authorized, on the loopback (median and p99).",
            discussion: """
                Starts a gateway in this process (SQLite in a temporary directory, the in-process issuer host), \
                links and prepares a TapToPay reader once, then runs --count purchases back to back: each one taps \
                the Visa test card on the loopback, reads it on the EMV kernel (card data sealed to the PSP) and \
                sends the read to `POST /v1/payments` with the merchant's API key over HTTP, as a merchant's server \
                does; the clock stops when the gateway answers with the authorized payment (ISO 8583 to the issuer \
                host, ARQC verified, committed to SQLite). Reports median and p99 of the whole purchase and of its \
                two legs (the read, the authorization), all from the same run. Target: median at most 10 ms.
                """
        )

        @Option(help: "Purchases to time.") var count: Int = 1_000
        @Option(help: "Purchases run first and not counted.") var warmup: Int = 20
        @Option(help: "Amount in major units (the test card holds 1,000.00 EUR).") var amount: String = "0.50"
        @Flag(help: "Print one JSON object instead of text.") var json = false

        func validate() throws {
            guard count >= 1, warmup >= 0 else {
                throw ValidationError("--count must be at least 1, --warmup at least 0")
            }
        }

        /// The `--json` object.
        struct Result: Encodable {
            var purchases: Int
            var approved: Int
            var purchase: LatencySummary
            var read: LatencySummary
            var authorize: LatencySummary
            var targetMedianMs: Double
        }

        func run() async throws {
            let price = try Amount(argument: amount, currency: "EUR")
            guard price.minorUnits * (count + warmup) <= TestCards.balance else {
                throw ValidationError("the test card's balance does not cover \(count + warmup) purchases of \(price)")
            }
            let (count, warmup) = (count, warmup)
            let result = try await TestGateway.with(logLevel: .critical) { gateway in
                let (merchant, token) = try await gateway.linkedMerchant()
                let interface = LoopbackInterface()
                let reader = gateway.reader(deviceID: "bench-iphone", interface: interface)
                // The app's event loop drains the events, as a UI would.
                return try await reader.watchingEvents {
                    let session = try await reader.prepare(using: token)
                    let card = try gateway.card(.approve, .visa, keyCount: count + warmup + 8)
                    let request = PaymentCardTransactionRequest(amount: price.decimalValue, currencyCode: "EUR")
                    var purchases = LatencySamples(), reads = LatencySamples(), authorizations = LatencySamples()
                    var approved = 0
                    let clock = ContinuousClock()
                    for index in 0..<(count + warmup) {
                        let start = clock.now
                        await interface.tap(card.channel)
                        let read = try await session.readPaymentCard(request)
                        let readDone = clock.now
                        let payment = try await gateway.authorize(read, minorUnits: price.minorUnits, for: merchant)
                        let end = clock.now
                        guard index >= warmup else { continue }
                        purchases.record(end - start)
                        reads.record(readDone - start)
                        authorizations.record(end - readDone)
                        if case .success(let payment) = payment, payment.status == .succeeded { approved += 1 }
                    }
                    return Result(
                        purchases: count, approved: approved, purchase: purchases.summary(), read: reads.summary(),
                        authorize: authorizations.summary(), targetMedianMs: 10)
                }
            }
            if json { return try printJSON(result) }
            print(
                "tap bench taptopay: \(result.purchases) purchases through TapToPay (loopback, SQLite), \(result.approved) approved"
            )
            for (name, summary) in [
                ("tap → authorized", result.purchase), ("  read (tap → sealed)", result.read),
                ("  authorize (server → PSP)", result.authorize),
            ] {
                print(
                    "  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)
                        + String(
                            format: "median %.3f ms  p99 %.3f ms  (min %.3f, max %.3f)",
                            summary.p50Ms, summary.p99Ms, summary.minMs, summary.maxMs))
            }
            print("  target median ≤ 10 ms: \(result.purchase.p50Ms <= 10 ? "met" : "MISSED")")
            if result.approved != result.purchases { throw ExitCode(1) }
        }
    }
}
