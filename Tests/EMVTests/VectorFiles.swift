import Foundation

/// The JSON vector files under Tests/EMVTests/Vectors (each names its provenance), and a seeded generator for
/// tests that need reproducible randomness.
enum VectorFiles {
    /// The bytes of `Vectors/<name>.json`.
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Vectors/\(name).json"])
        }
        return try Data(contentsOf: url)
    }

    /// `Vectors/<name>.json` decoded as `type`.
    static func load<File: Decodable>(_ name: String, as type: File.Type) throws -> File {
        try JSONDecoder().decode(File.self, from: data(name))
    }
}

/// SplitMix64: a small seeded generator, so random fill and key generation in tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
