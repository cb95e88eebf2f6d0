import Foundation

/// The shipped traces, `Traces/*.trace` in the test bundle.
enum TraceFiles {
    static var urls: [URL] {
        let directory = Bundle.module.resourceURL?.appendingPathComponent("Traces")
        let files = directory.flatMap { try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) }
        return (files ?? []).filter { $0.pathExtension == "trace" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
