import EMV
import Foundation
import SmartCard

/// The shipped traces, `Traces/*.trace` in the test bundle, and the CA public keys they name.
enum TraceFiles {
    static var directory: URL? { Bundle.module.resourceURL?.appendingPathComponent("Traces") }

    /// File names of the shipped traces, sorted.
    static var names: [String] {
        guard let directory,
            let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return files.filter { $0.hasSuffix(".trace") }.sorted()
    }

    /// Reads and parses one shipped trace.
    static func load(_ name: String) throws -> APDUTrace {
        try APDUTrace(contentsOf: try url(name))
    }

    /// The production CA public keys the traces name (`Traces/ca-public-keys.json`, provenance in the file).
    static func caPublicKeys() throws -> CAPublicKeyList {
        try CAPublicKeyList(contentsOf: try url("ca-public-keys.json"))
    }

    private static func url(_ name: String) throws -> URL {
        guard let url = directory?.appendingPathComponent(name) else { throw CocoaError(.fileNoSuchFile) }
        return url
    }
}
