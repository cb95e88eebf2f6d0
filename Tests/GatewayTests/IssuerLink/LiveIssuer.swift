import Foundation
import Gateway
import ISO8583
import Issuer
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Live loopback plumbing for the server and link tests: services run in their own service group, a raw TCP client
/// for bytes no link would send, and every log line kept (IdentityFixture's `LogRecorder`) to search for card data.
enum LiveIssuer {
    /// Collects every log line (message and metadata) of the tests that use it.
    static let logs = LogRecorder()

    /// A logger writing to ``logs`` at trace level (`label` names the component in the test, not in the line).
    static func logger(_ label: String) -> Logger { logs.logger }

    /// Runs `service` in a service group while `body` runs, then shuts it down gracefully and waits for it.
    static func withRunning<T>(_ service: some Service, _ body: () async throws -> T) async throws -> T {
        let group = ServiceGroup(services: [service], logger: logger("test.group"))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                let result = try await body()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                tasks.cancelAll()
                throw error
            }
        }
    }

    /// A server for `host` on a free loopback port.
    static func server(_ host: IssuerHost, maximumMessageLength: Int = 65_535) -> IssuerServer {
        IssuerServer(
            issuer: host,
            configuration: IssuerServer.Configuration(framing: ISO8583Framing(maximumMessageLength: maximumMessageLength)),
            logger: logger("test.issuer-server"))
    }

    /// A TCP link to `port` on the loopback.
    static func link(port: Int, connections: Int = 1) -> TCPIssuerLink {
        TCPIssuerLink(
            configuration: TCPIssuerLink.Configuration(host: "127.0.0.1", port: port, connections: connections),
            logger: logger("test.issuer-link"))
    }

    /// A server for `host` and a link to it, both running while `body` runs.
    static func withServerAndLink<T>(
        _ host: IssuerHost, connections: Int = 1, _ body: (IssuerServer, TCPIssuerLink) async throws -> T
    ) async throws -> T {
        let server = server(host)
        return try await withRunning(server) {
            let link = link(port: try await server.port, connections: connections)
            return try await withRunning(link) { try await body(server, link) }
        }
    }

    /// A plain TCP connection to `port`, for bytes no link would send.
    static func rawConnection(port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) {
            ISO8583FrameDecoder.asyncChannel($0)
        }
    }

    /// A network management request (0800) the host answers with `40`: a round trip that needs no card.
    static func echo(stan: Int, terminal: String = "TERM0001") -> ISO8583Message {
        var message = ISO8583Message(mti: .networkManagementRequest)
        message[.systemTraceAuditNumber] = .text(String(format: "%06d", stan))
        message[.retrievalReferenceNumber] = .text(String(format: "%012d", stan))
        message[.terminalID] = .text(terminal)
        return message
    }
}
