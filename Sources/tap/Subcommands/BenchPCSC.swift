import ArgumentParser
import EMV
import Foundation
import ReaderKernel
import SmartCard

extension Tap.Bench {
    /// Purchases back to back on the card in a PC/SC reader: the whole purchase and each APDU round trip, timed.
    struct PCSCPurchases: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pcsc",
            abstract: "Time purchases back to back on the card in a PC/SC reader (median and p99).",
            discussion: """
                Connects once to the card in the reader and runs --count purchases on the reader kernel, one after \
                the other, on the same connection (the card must stay in the field: vpcd's virtual card from \
                `tap emulate --vpcd`, or a card lying on a USB reader). Reports the median and p99 of the whole \
                purchase and of every APDU round trip (each SCardTransmit, GET RESPONSE rounds included), all from \
                the same run. The first --warmup purchases are not counted.
                """
        )

        @Option(help: "The reader to use (default: the first with a card).") var reader: String?
        @Option(help: "Purchases to time.") var count: Int = 200
        @Option(help: "Purchases run first and not counted.") var warmup: Int = 2
        @Option(help: "Seconds to wait for a card.") var timeout: Double = 30
        @Option(help: "Amount in major units.") var amount: String = "12.34"
        @Option(help: "ISO 4217 currency.") var currency: String = "EUR"
        @Flag(help: "Print one JSON object instead of text.") var json = false

        func validate() throws {
            guard count >= 1, warmup >= 0 else {
                throw ValidationError("--count must be at least 1, --warmup at least 0")
            }
        }

        /// Milliseconds: median, p99, min and max.
        struct Summary: Encodable {
            var median: Double
            var p99: Double
            var min: Double
            var max: Double

            init(_ samples: [Double]) {
                // Microseconds are the clock's useful resolution here; more digits are noise in the JSON.
                func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
                median = rounded(samples.median)
                p99 = rounded(samples.percentile(99))
                min = rounded(samples.min() ?? .nan)
                max = rounded(samples.max() ?? .nan)
            }

            var text: String {
                String(format: "median %.3f ms, p99 %.3f ms (min %.3f, max %.3f)", median, p99, min, max)
            }
        }

        /// The `--json` object.
        struct Result: Encodable {
            var reader: String
            var transport: String
            var purchases: Int
            var apdus: Int
            var purchaseMilliseconds: Summary
            var apduMilliseconds: Summary
            var outcomes: [String: Int]

            enum CodingKeys: String, CodingKey {
                case reader, transport, purchases, apdus, outcomes
                case purchaseMilliseconds = "purchase_ms"
                case apduMilliseconds = "apdu_ms"
            }
        }

        func run() async throws {
            let amount = try Amount(argument: amount, currency: currency)
            let kernel = ReaderKernel(configuration: .default(caPublicKeys: try CardKeys.caPublicKeys(adding: nil)))
            let session = try ReaderSession.connect(reader: reader, timeout: timeout, quiet: json)
            defer { session.channel.disconnect(reset: true) }
            let recorder = RecordingChannel(session.channel)
            let request = TransactionRequest(amount: amount)
            var purchases: [Double] = []
            var roundTrips: [Double] = []
            var outcomes: [String: Int] = [:]
            purchases.reserveCapacity(count)
            let clock = ContinuousClock()
            for number in 1...(warmup + count) {
                await recorder.clear()
                let start = clock.now
                let result = await kernel.perform(request, over: recorder)
                let elapsed = start.duration(to: clock.now)
                if let failure = result.exchanges.first(where: { $0.error != nil }), let error = failure.error {
                    throw CommandFailure(
                        "purchase \(number) of \(warmup + count) failed at \(failure.command.instruction): \(error)")
                }
                guard number > warmup else { continue }
                purchases.append(Self.milliseconds(elapsed))
                roundTrips += await recorder.exchanges.map { Self.milliseconds($0.duration) }
                outcomes[result.outcome.status.rawValue, default: 0] += 1
                if !json, number > warmup, (number - warmup) % 50 == 0 {
                    standardError("\(number - warmup) of \(count) purchases")
                }
            }
            let report = Result(
                reader: session.channel.readerName, transport: session.transport, purchases: purchases.count,
                apdus: roundTrips.count, purchaseMilliseconds: Summary(purchases),
                apduMilliseconds: Summary(roundTrips), outcomes: outcomes)
            if json {
                try printJSON(report)
            } else {
                print(
                    "reader \"\(report.reader)\" (\(report.transport)), \(report.purchases) purchases, \(report.apdus) APDUs"
                )
                print("whole purchase:   \(report.purchaseMilliseconds.text)")
                print("APDU round trip:  \(report.apduMilliseconds.text)")
                print(
                    "outcomes: "
                        + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }
        }

        static func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
    }
}

extension Array where Element == Double {
    /// The nearest-rank percentile (`percentile(99)` is the value 99 % of samples are at or below).
    func percentile(_ percent: Double) -> Double {
        let sorted = self.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }
}
