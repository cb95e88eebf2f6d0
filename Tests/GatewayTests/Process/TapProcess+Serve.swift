import Foundation

extension TapProcess {
    /// What `tap serve` prints once it listens.
    static let serveBanner = "tap serve: listening on "

    /// Starts `tap serve --port 0 arguments…` and waits until it listens.
    /// - Returns: the process and its base URL (`http://127.0.0.1:PORT`).
    static func serve(_ arguments: [String], name: String, logs: ProcessLogs) async throws -> (TapProcess, String) {
        let process = try TapProcess(["serve", "--port", "0"] + arguments, name: name, logs: logs)
        let line = try await process.line(startingWith: serveBanner)
        return (process, String(line.dropFirst(serveBanner.count)))
    }

    /// Starts `tap issuer --port 0` and waits until it listens.
    /// - Returns: the process and its `HOST:PORT`, as `tap serve --issuer` takes it.
    static func issuer(name: String, logs: ProcessLogs) async throws -> (TapProcess, String) {
        let banner = "tap issuer: listening on "
        let process = try TapProcess(["issuer", "--port", "0", "--log-level", "trace"], name: name, logs: logs)
        let line = try await process.line(startingWith: banner)
        return (process, String(line.dropFirst(banner.count)))
    }
}
