import Benchmark
import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard

/// One contactless purchase between our card applet and reader kernel over the in-process loopback (issue 3's
/// budget: at most 1 ms per transaction, and at most 3× the same transaction's cryptography alone).
///
/// Each card is personalised once; every iteration taps a fresh copy of it (a value: same ATC, same key), so each
/// iteration is the same first transaction: entry point, GPO, records, ODA (fDDA for Visa, CDA for Mastercard), the
/// cryptogram, the outcome with field 55. The "cryptography alone" benchmark runs exactly that transaction's
/// cryptographic operations, card and reader side, on the inputs the full run produced.
/// Run from the repository root: `cd Benchmarks && swift package --disable-sandbox benchmark --no-progress`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )
    for card in BenchmarkCard.allCases {
        Benchmark("Purchase \(card.title): full transaction, card + kernel on the loopback") {
            (benchmark, purchase: Purchase) async throws in
            for _ in benchmark.scaledIterations {
                blackHole(try await purchase.run())
            }
        } setup: {
            try await Purchase(card)
        }

        Benchmark("Purchase \(card.title): its cryptography alone") { (benchmark, crypto: PurchaseCryptography) in
            for _ in benchmark.scaledIterations {
                blackHole(try crypto.run())
            }
        } setup: {
            try await PurchaseCryptography(Purchase(card))
        }
    }
}
