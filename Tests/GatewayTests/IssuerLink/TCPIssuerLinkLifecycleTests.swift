import Foundation
import Gateway
import ISO8583
import Issuer
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

@Suite("TCPIssuerLink: late answers and graceful shutdown")
struct TCPIssuerLinkLifecycleTests {
    @Test("an answer after the timeout is dropped and logged without card data; the connection keeps serving")
    func lateResponse() async throws {
        try await Self.withSlowIssuer(delay: .milliseconds(400)) { port in
            let link = LiveIssuer.link(port: port)
            try await LiveIssuer.withRunning(link) {
                // Connected first, so the short timeout below runs on a written request.
                _ = try await link.send(LiveIssuer.echo(stan: 30), timeout: .seconds(20))
                var request = LiveIssuer.echo(stan: 31)
                request[.pan] = "4761739001010119"
                await #expect(throws: IssuerLinkError.timedOut) {
                    try await link.send(request, timeout: .milliseconds(100))
                }
                // The next answer comes after the late one, on the same connection.
                let response = try await link.send(LiveIssuer.echo(stan: 32), timeout: .seconds(20))
                #expect(response[.systemTraceAuditNumber] == "000032")
            }
        }
        let logs = LiveIssuer.logs.text
        #expect(logs.contains("dropped a late or unknown response"))
        #expect(logs.contains("000031"))
        #expect(!logs.contains("4761739001010119"))
    }

    @Test("graceful shutdown: the request in flight runs to its end, run() returns, later requests are refused")
    func drain() async throws {
        let silent = try #require(TestCards.card(.issuerTimeout, .visa))
        let request = try await LinkFixture.request(silent)
        let server = LiveIssuer.server(try LinkFixture.host())
        try await LiveIssuer.withRunning(server) {
            let link = LiveIssuer.link(port: try await server.port)
            let group = ServiceGroup(services: [link], logger: LiveIssuer.logger("test.group"))
            try await withThrowingTaskGroup(of: IssuerLinkError?.self) { tasks in
                tasks.addTask {
                    try await group.run()
                    return nil
                }
                _ = try await link.send(LiveIssuer.echo(stan: 1), timeout: .seconds(20))
                tasks.addTask {
                    do {
                        _ = try await link.send(request, timeout: .milliseconds(600))
                        return nil
                    } catch {
                        return error as? IssuerLinkError
                    }
                }
                while link.requestsInFlight == 0 { try await Task.sleep(for: .milliseconds(10)) }
                await group.triggerGracefulShutdown()
                var errors: [IssuerLinkError] = []
                for try await error in tasks { if let error { errors.append(error) } }
                #expect(errors == [IssuerLinkError.timedOut])
                #expect(link.requestsInFlight == 0)
                await #expect(throws: IssuerLinkError.unavailable) {
                    try await link.send(LiveIssuer.echo(stan: 2), timeout: .seconds(1))
                }
            }
        }
    }

    /// A fake issuer on a free loopback port that answers every request `delay` after reading it, with its response
    /// MTI and `00`, one at a time.
    static func withSlowIssuer(delay: Duration, _ body: (Int) async throws -> Void) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.autoRead, value: false)
            .bind(host: "127.0.0.1", port: 0) { $0.eventLoop.makeSucceededFuture($0) }
        let port = try #require(server.channel.localAddress?.port)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                try await server.executeThenClose { connections in
                    for try await channel in connections {
                        let connection = try await ISO8583FrameDecoder.asyncChannel(accepted: channel)
                        try await connection.executeThenClose { inbound, outbound in
                            for try await frame in inbound {
                                try await Task.sleep(for: delay)
                                var response = try ISO8583Message(
                                    decoding: Array(frame.readableBytesView), using: .contactless)
                                response.mti = response.mti.response ?? response.mti
                                response[.responseCode] = "00"
                                try await outbound.write(
                                    ISO8583Framing().frame(response, using: .contactless, allocator: ByteBufferAllocator()))
                            }
                        }
                    }
                }
            }
            try await body(port)
            tasks.cancelAll()
        }
    }
}
