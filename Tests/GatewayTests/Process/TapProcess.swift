import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `tap` subcommand running as a child process, its standard output and error written to files in its
/// ``ProcessLogs`` directory: a test waits for a line there, signals the process, and searches everything it wrote.
///
/// Foundation's `Process` is not `Sendable`; only its thread-safe members (pid, `isRunning`, termination status) are
/// used after launch, hence `@unchecked`.
final class TapProcess: @unchecked Sendable {
    /// How the process ended.
    enum Ending: Equatable, CustomStringConvertible {
        /// `exit(status)`.
        case exit(Int32)
        /// Killed by this signal.
        case signal(Int32)

        var description: String {
            switch self {
            case .exit(let status): "exit \(status)"
            case .signal(let signal): "signal \(signal)"
            }
        }
    }

    /// Names the process in its log files and in failures.
    let name: String
    /// Where its standard output goes.
    let output: URL
    /// Where its standard error goes.
    let errors: URL
    private let process = Process()

    /// Starts `tap arguments…`; `name` must be unique within `logs`.
    init(_ arguments: [String], name: String, logs: ProcessLogs) throws {
        let binary = try #require(TapBinary.url, TapBinary.skipReason)
        self.name = name
        output = logs.directory.appendingPathComponent("\(name).stdout")
        errors = logs.directory.appendingPathComponent("\(name).stderr")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        logs.register(self)
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }
    /// Whether it still runs.
    var isRunning: Bool { process.isRunning }

    /// What it wrote to standard output so far.
    var standardOutput: String { Self.text(of: output) }
    /// What it wrote to standard error so far.
    var standardError: String { Self.text(of: errors) }

    /// Sends `signal` (SIGTERM, SIGKILL) to the process.
    func send(_ signal: Int32) {
        if process.isRunning { _ = kill(process.processIdentifier, signal) }
    }

    /// The first complete line of standard output that starts with `prefix`, waiting up to `timeout` for it.
    /// - Throws: ``ProcessTestFailure`` when the process ends first or the time runs out.
    func line(startingWith prefix: String, timeout: Duration = .seconds(120)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = standardOutput
            // Complete lines only: the last one may still be being written.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(
                text.hasSuffix("\n") ? 0 : 1)
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            guard process.isRunning else { throw failure("ended before printing \"\(prefix)…\"") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw failure("printed no \"\(prefix)…\" within \(timeout)")
    }

    /// How the process ended, waiting up to `timeout`.
    /// - Throws: ``ProcessTestFailure`` when it still runs then.
    func ending(timeout: Duration = .seconds(60)) async throws -> Ending {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw failure("still running after \(timeout)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationReason == .exit
            ? .exit(process.terminationStatus) : .signal(process.terminationStatus)
    }

    /// Runs `tap arguments…` to its end and returns its standard output.
    /// - Throws: ``ProcessTestFailure`` unless it exits 0 within `timeout`.
    static func run(
        _ arguments: [String], name: String, logs: ProcessLogs, timeout: Duration = .seconds(120)
    ) async throws -> Data {
        let process = try TapProcess(arguments, name: name, logs: logs)
        let ending = try await process.ending(timeout: timeout)
        guard ending == .exit(0) else { throw process.failure("ended with \(ending)") }
        return Data(process.standardOutput.utf8)
    }

    /// Kills the process if it still runs and waits for it (cleanup after a failed test).
    func killAndWait() {
        guard process.isRunning else { return }
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A failure naming the process, with the end of its standard error.
    func failure(_ what: String) -> ProcessTestFailure {
        ProcessTestFailure(description: "tap \(name) \(what); its standard error ends:\n\(standardError.suffix(2_000))")
    }

    private static func text(of file: URL) -> String {
        String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
    }
}

/// A child process that did not do what the test needed.
struct ProcessTestFailure: Error, CustomStringConvertible {
    let description: String
}
