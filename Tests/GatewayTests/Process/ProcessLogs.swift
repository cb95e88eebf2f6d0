import Foundation
import Issuer

/// The log directory of one process test: every `tap` process it starts writes its standard output and error here
/// (data directories live elsewhere), so the test can search all of it for card data at the end.
///
/// ```swift
/// let logs = try ProcessLogs()
/// defer { logs.close() }          // kills what still runs, removes the directory
/// let serve = try TapProcess(["serve", "--port", "0"], name: "serve", logs: logs)
/// #expect(logs.cardDataFindings() == [])
/// ```
final class ProcessLogs: @unchecked Sendable {
    /// Where the logs are.
    let directory: URL
    private let lock = NSLock()
    // Guarded by `lock`.
    private var processes: [TapProcess] = []

    /// A fresh directory in the temporary directory.
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tap-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Adds a started process, so ``close()`` can stop it.
    func register(_ process: TapProcess) {
        lock.withLock { processes.append(process) }
    }

    /// Kills every process that still runs and removes the directory (kept when `KEEP_PROCESS_LOGS` is set, for a
    /// look at what the processes wrote).
    func close() {
        for process in lock.withLock({ processes }) { process.killAndWait() }
        guard ProcessInfo.processInfo.environment["KEEP_PROCESS_LOGS"] == nil else { return }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Where a test card's PAN, or its track 2 (the PAN then `=` or `D`), appears in any log: one line per file and
    /// card, the PAN masked; empty when the logs hold no card data.
    func cardDataFindings() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        var findings: [String] = []
        for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self).uppercased()
            for card in TestCards.all + TestCards.loadTestCards where text.contains(card.pan) {
                let track2 = text.contains(card.pan + "=") || text.contains(card.pan + "D")
                findings.append("\(file.lastPathComponent): \(card)\(track2 ? " (track 2)" : "")")
            }
        }
        return findings
    }
}
