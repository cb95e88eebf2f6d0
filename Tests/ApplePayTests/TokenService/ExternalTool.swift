import Foundation

/// Runs the independent tools the token service is checked against: `openssl` and the Python decryptor
/// (scripts/applepay-decrypt.py, `cryptography` package). Tests that need one skip when it is missing.
enum ExternalTool {
    /// What a tool printed and how it exited.
    struct Output {
        var status: Int32
        var standardOutput: Data
        var standardError: String
        var text: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// The package's root directory (this file is Tests/ApplePayTests/TokenService/ExternalTool.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// /usr/bin/openssl, when installed.
    static let openssl: URL? = {
        let path = "/usr/bin/openssl"
        return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
    }()

    /// A Python with `cryptography`: `$APPLEPAY_PYTHON`, the package's .venv (scripts/test makes it), or python3.
    static let python: URL? = {
        let candidates = [
            ProcessInfo.processInfo.environment["APPLEPAY_PYTHON"],
            packageRoot.appendingPathComponent(".venv/bin/python").path,
            "/usr/bin/python3",
        ].compactMap { $0 }
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) {
            let url = URL(fileURLWithPath: path)
            if let check = try? run(url, ["-c", "import cryptography"]), check.status == 0 { return url }
        }
        return nil
    }()

    /// The independent decryptor script.
    static let decryptScript = packageRoot.appendingPathComponent("scripts/applepay-decrypt.py")

    /// Runs `executable` with `arguments` and waits for it.
    static func run(_ executable: URL, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a tool cannot block on a full pipe (their error output is a few lines at most).
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, standardOutput: output,
            standardError: String(decoding: error, as: UTF8.self)
        )
    }

    /// A fresh directory for a test's files, removed by the caller with `FileManager.removeItem`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("applepay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
