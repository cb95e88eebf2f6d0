import EMV
import Foundation

/// Inputs shared by the benchmarks: the repository's test vector files, read from the source tree because an
/// executable target cannot reach the test target's bundle.
enum BenchmarkFixtures {
    /// An input or a known answer did not match: the benchmark would measure the wrong thing.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Tests/EMVTests/Vectors in the checkout this file was compiled from.
    static let vectorDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // EMVBenchmarks
        .deletingLastPathComponent()  // Benchmarks (targets)
        .deletingLastPathComponent()  // Benchmarks (package)
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Tests/EMVTests/Vectors")

    /// Decodes one vector file.
    static func vector<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        let url = vectorDirectory.appendingPathComponent("\(name).json")
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    /// Bytes from hex that is known to be well formed.
    static func bytes(_ hex: String) throws -> [UInt8] {
        guard let bytes = [UInt8](hex: hex) else { throw SetupError("malformed hex in a benchmark input") }
        return bytes
    }

    /// Fails setup unless an operation gave the known answer.
    static func expect(_ actual: [UInt8], _ expectedHex: String, _ what: String) throws {
        guard actual == (try bytes(expectedHex)) else {
            throw SetupError("\(what): got \(actual.hexString), expected \(expectedHex)")
        }
    }
}
