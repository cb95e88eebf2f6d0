import Foundation
import SmartCard

/// The shipped traces, `Traces/*.trace` in the test bundle.
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
        guard let url = directory?.appendingPathComponent(name) else { throw CocoaError(.fileNoSuchFile) }
        return try APDUTrace(contentsOf: url)
    }
}
