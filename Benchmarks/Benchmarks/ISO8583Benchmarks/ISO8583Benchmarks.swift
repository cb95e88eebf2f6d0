import Benchmark
import EMV
import Foundation
import ISO8583

/// The ISO 8583 work of one authorization on each side of the gateway↔issuer link: encoding and decoding a 0100 with
/// the fields the gateway sends (PAN, track 2, amounts, terminal and merchant ids, PIN block, ICC data, 21 fields),
/// in the `contactless` dialect. The message is the one pyiso8583 4.0.1 encoded in
/// Tests/ISO8583Tests/Vectors/pyiso8583-examples.json (its `default` dialect lays these fields out identically).
/// Run from the repository root: `cd Benchmarks && swift package --disable-sandbox benchmark --no-progress`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    Benchmark("ISO 8583 encode: 0100 authorization request (21 fields)") { (benchmark, message: ISO8583Message) in
        for _ in benchmark.scaledIterations {
            blackHole(try message.encoded(using: .contactless))
        }
    } setup: {
        try ISO8583Message(decoding: authorizationRequest(), using: .contactless)
    }

    Benchmark("ISO 8583 decode: 0100 authorization request (21 fields)") { (benchmark, bytes: [UInt8]) in
        for _ in benchmark.scaledIterations {
            blackHole(try ISO8583Message(decoding: bytes, using: .contactless))
        }
    } setup: {
        try authorizationRequest()
    }
}

struct SetupError: Error {}

/// The bytes of the vector file's `default` 0100, checked to round-trip.
func authorizationRequest() throws -> [UInt8] {
    struct File: Decodable {
        struct Vector: Decodable {
            let spec: String
            let hex: String
        }
        let vectors: [Vector]
    }
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ISO8583Benchmarks
        .deletingLastPathComponent()  // Benchmarks (targets)
        .deletingLastPathComponent()  // Benchmarks (package)
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Tests/ISO8583Tests/Vectors/pyiso8583-examples.json")
    let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    guard let vector = file.vectors.first(where: { $0.spec == "default" && $0.hex.hasPrefix("30313030") }),
        let bytes = [UInt8](hex: vector.hex),
        try ISO8583Message(decoding: bytes, using: .contactless).encoded(using: .contactless) == bytes
    else { throw SetupError() }
    return bytes
}
