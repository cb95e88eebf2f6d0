import Benchmark

/// The EMV module's hot paths, as a terminal, a card or an issuer host runs them once per transaction.
///
/// Each benchmark prepares its inputs once in `setup` (hex decoding, vector files, key schedules), checks the
/// operation once against a known answer (from pyemv, psec or OpenSSL where one exists), and measures only the
/// operation. Every benchmark runs on one thread.
/// Run from the repository root: `cd Benchmarks && swift package --disable-sandbox benchmark --no-progress`.
let benchmarks: @Sendable () -> Void = {
    // Wall clock and throughput for speed, malloc count because every allocation costs on a busy issuer host.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )
    codecBenchmarks()
    cryptogramBenchmarks()
    pinBlockBenchmarks()
    offlineDataAuthenticationBenchmarks()
    tdesBenchmarks()
}
