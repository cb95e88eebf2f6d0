public import Foundation
public import Gateway
public import Logging
import Hummingbird
import NIOCore

/// A whole gateway serving on a free loopback port for the length of a closure: tests, `tap demo` and
/// `tap bench gateway` start it the same way (durable SQLite in a fresh data directory, and the issuer the
/// configuration attaches: `TestMode`'s test issuer for all of them).
public struct RunningGateway: Sendable {
    /// The application: its database and issuer for checks and onboarding.
    public let application: GatewayApplication
    /// The loopback port it listens on.
    public let port: Int
    /// The data directory (removed when the closure returns).
    public let dataDirectory: URL

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Builds a gateway over a fresh data directory with `configuration` (given that directory; port 0 is forced),
    /// runs `body` while it serves, then stops it gracefully and removes the directory.
    /// - Throws: ``RunningGatewayError`` when the server does not start listening; whatever building or `body`
    ///   throws.
    public static func with<Result: Sendable>(
        logger: Logger, configuration: (URL) throws -> GatewayConfiguration,
        _ body: @Sendable (RunningGateway) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gateway-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = try configuration(directory)
        settings.port = 0
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = try await GatewayApplication.build(configuration: settings, logger: logger) { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        }
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                // A server that fails to start ends the wait for its port.
                defer { portContinuation.finish() }
                // No signal handlers: cancelling this task ends the server (graceful shutdown).
                try await application.application.runService(gracefulShutdownSignals: [])
                return nil
            }
            defer { group.cancelAll() }
            guard let port = await ports.first(where: { _ in true }), port > 0 else {
                throw RunningGatewayError(message: "the gateway did not start listening")
            }
            return try await body(RunningGateway(application: application, port: port, dataDirectory: directory))
        }
    }
}

/// The gateway of a ``RunningGateway`` did not start.
public struct RunningGatewayError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// An error saying `message`.
    public init(message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
