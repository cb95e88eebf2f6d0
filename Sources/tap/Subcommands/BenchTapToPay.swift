import ArgumentParser
import EMV
import Foundation
import GatewayAPI
import Issuer
import Logging
import TapToPay
import TestMode
import ValueAddedServices

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

                --loyalty puts a loyalty pass beside the card on the phone and alternates two purchases per round \
                on it: one payment only, one reading the pass and the card in the same tap \
                (readPaymentCard(_:vasRequest:stopOnVASResult:)), whose merchant's server also decrypts the pass's \
                member id. It reports both and the ratio of their medians; target: the tap with the pass at most \
                1.5× the payment-only tap.
                """
        )

        @Option(help: "Purchases to time.") var count: Int = 1_000
        @Option(help: "Purchases run first and not counted.") var warmup: Int = 20
        @Option(help: "Amount in major units (the test card holds 1,000.00 EUR; --loyalty pays twice a round).")
        var amount: String = "0.25"
        @Flag(help: "Alternate payment-only purchases with ones that also read a loyalty pass in the same tap.")
        var loyalty = false
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
            /// With --loyalty: the purchases that also read the pass, on the same phone in the same run.
            var loyalty: Loyalty?
        }

        /// The purchases with a loyalty pass, and how they compare with the payment-only ones.
        struct Loyalty: Encodable {
            var purchases: Int
            var approved: Int
            var membersDecrypted: Int
            var purchase: LatencySummary
            var read: LatencySummary
            /// Median read with the pass over median read without.
            var readRatio: Double
            /// Median purchase with the pass (and its decryption) over median purchase without.
            var purchaseRatio: Double
            var targetReadRatio: Double
        }

        func run() async throws {
            let price = try Amount(argument: amount, currency: "EUR")
            let rounds = (count + warmup) * (loyalty ? 2 : 1)
            guard price.minorUnits * rounds <= TestCards.balance else {
                throw ValidationError("the test card's balance does not cover \(rounds) purchases of \(price)")
            }
            let (count, warmup, loyalty) = (count, warmup, loyalty)
            let result = try await TestGateway.with(logLevel: .critical) { gateway in
                let (merchant, token) = try await gateway.linkedMerchant()
                let interface = LoopbackInterface()
                let reader = gateway.reader(deviceID: "bench-iphone", interface: interface)
                // The app's event loop drains the events, as a UI would.
                return try await reader.watchingEvents {
                    let session = try await reader.prepare(using: token)
                    let card = try gateway.card(.approve, .visa, keyCount: rounds + 8)
                    let request = PaymentCardTransactionRequest(amount: price.decimalValue, currencyCode: "EUR")
                    // With --loyalty both kinds of purchase tap the same phone: the card beside the pass.
                    let program = try TestLoyaltyProgram()
                    let phone = await program.phone(carrying: card.channel, clock: gateway.clock.function)
                    let vasRequest = VASRequest(
                        vasMerchants: [VASRequest.Merchant(id: TestLoyaltyProgram.passTypeIdentifier)],
                        localizedVASType: "Test Coffee")
                    var plain = Samples(), withPass = Samples()
                    var decrypted = 0
                    let clock = ContinuousClock()
                    for index in 0..<(count + warmup) {
                        let counted = index >= warmup
                        for passToo in loyalty ? [false, true] : [false] {
                            let start = clock.now
                            let read: PaymentCardReadResult
                            if loyalty { await interface.tap(phone) } else { await interface.tap(card.channel) }
                            if passToo {
                                let (payment, passes) = try await session.readPaymentCard(
                                    request, vasRequest: vasRequest, stopOnVASResult: false)
                                guard let payment, let data = passes?.entries.first?.customerVASData else {
                                    throw CommandFailure("a tap with the pass read no pass or no card")
                                }
                                read = payment
                                let member = try program.decryptor.decrypt(
                                    data, passTypeIdentifier: TestLoyaltyProgram.passTypeIdentifier,
                                    now: gateway.clock.now)
                                if counted, member.message == program.pass.nfc.message { decrypted += 1 }
                            } else {
                                read = try await session.readPaymentCard(request)
                            }
                            let readDone = clock.now
                            let payment = try await gateway.authorize(read, minorUnits: price.minorUnits, for: merchant)
                            let end = clock.now
                            guard counted else { continue }
                            let approved = (try? payment.get().status) == .succeeded
                            if passToo {
                                withPass.record(start: start, readDone: readDone, end: end, approved: approved)
                            } else {
                                plain.record(start: start, readDone: readDone, end: end, approved: approved)
                            }
                        }
                    }
                    return Result(
                        purchases: count, approved: plain.approved, purchase: plain.purchases.summary(),
                        read: plain.reads.summary(), authorize: plain.authorizations.summary(), targetMedianMs: 10,
                        loyalty: loyalty
                            ? Loyalty(
                                purchases: count, approved: withPass.approved, membersDecrypted: decrypted,
                                purchase: withPass.purchases.summary(), read: withPass.reads.summary(),
                                readRatio: withPass.reads.summary().p50Ms / plain.reads.summary().p50Ms,
                                purchaseRatio: withPass.purchases.summary().p50Ms / plain.purchases.summary().p50Ms,
                                targetReadRatio: 1.5) : nil)
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
            if let loyalty = result.loyalty {
                print(
                    "  with a loyalty pass in the same tap (\(loyalty.approved) approved, "
                        + "\(loyalty.membersDecrypted) member ids decrypted)")
                for (name, summary) in [
                    ("tap → authorized", loyalty.purchase), ("  read (tap → sealed)", loyalty.read),
                ] {
                    print(
                        "  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)
                            + String(format: "median %.3f ms  p99 %.3f ms", summary.p50Ms, summary.p99Ms))
                }
                print(
                    String(
                        format: "  read with pass / without: %.2f× (purchase %.2f×); target ≤ 1.5×: %@",
                        loyalty.readRatio, loyalty.purchaseRatio, loyalty.readRatio <= 1.5 ? "met" : "MISSED"))
            }
            if result.approved != result.purchases { throw ExitCode(1) }
            if let loyalty = result.loyalty, loyalty.approved != count || loyalty.membersDecrypted != count {
                throw ExitCode(1)
            }
        }
    }
}

/// One kind of purchase's latencies: the whole purchase and its two legs, and how many were approved.
private struct Samples {
    var purchases = LatencySamples(), reads = LatencySamples(), authorizations = LatencySamples()
    var approved = 0

    mutating func record(
        start: ContinuousClock.Instant, readDone: ContinuousClock.Instant, end: ContinuousClock.Instant, approved: Bool
    ) {
        purchases.record(end - start)
        reads.record(readDone - start)
        authorizations.record(end - readDone)
        if approved { self.approved += 1 }
    }
}
