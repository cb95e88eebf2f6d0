import Benchmark
import EMV

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(2))

    Benchmark("Hex decode 300 bytes") { benchmark in
        let text = String(repeating: "9F02", count: 150)
        for _ in benchmark.scaledIterations {
            blackHole([UInt8](hex: text))
        }
    }
}
