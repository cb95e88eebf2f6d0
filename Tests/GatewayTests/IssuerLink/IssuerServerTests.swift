import Foundation
import Gateway
import ISO8583
import Issuer
import NIOCore
import Testing

@Suite("IssuerServer: hostile input, restarts, shutdown")
struct IssuerServerTests {
    @Test("a message that does not decode gets no answer; the connection and the server keep serving")
    func garbage() async throws {
        let server = LiveIssuer.server(try LinkFixture.host())
        try await LiveIssuer.withRunning(server) {
            let port = try await server.port
            let connection = try await LiveIssuer.rawConnection(port: port)
            let echo = try ISO8583Framing().frame(
                LiveIssuer.echo(stan: 5), using: .contactless, allocator: ByteBufferAllocator())
            let first: ByteBuffer? = try await connection.executeThenClose { inbound, outbound in
                for garbage: [UInt8] in [[0x00, 0x04, 0x41, 0x42, 0x43, 0x44], [0x00, 0x00], [0x00, 0x02, 0x30, 0x31]] {
                    try await outbound.write(ByteBuffer(bytes: garbage))
                }
                try await outbound.write(echo)
                for try await frame in inbound { return frame }
                return nil
            }
            // The first answer on the connection is the echo's: nothing answered the garbage.
            let response = try ISO8583Message(decoding: Array(try #require(first).readableBytesView), using: .contactless)
            #expect(response.mti == .networkManagementResponse)
            #expect(response[.systemTraceAuditNumber] == "000005")
        }
    }

    @Test("an oversized frame closes that connection only; other connections keep being served")
    func oversizedFrame() async throws {
        let server = LiveIssuer.server(try LinkFixture.host(), maximumMessageLength: 1_024)
        try await LiveIssuer.withRunning(server) {
            let port = try await server.port
            let link = LiveIssuer.link(port: port)
            try await LiveIssuer.withRunning(link) {
                _ = try await link.send(LiveIssuer.echo(stan: 1), timeout: .seconds(10))
                let hostile = try await LiveIssuer.rawConnection(port: port)
                let closed = try await hostile.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(bytes: [0xFF, 0xFF] + Array(repeating: 0x30, count: 64)))
                    do {
                        for try await _ in inbound {}
                    } catch {
                        // A reset instead of an orderly close: closed all the same.
                    }
                    return true
                }
                #expect(closed)
                let response = try await link.send(LiveIssuer.echo(stan: 2), timeout: .seconds(10))
                #expect(response[.systemTraceAuditNumber] == "000002")
            }
        }
    }

    @Test("when the server restarts on the same port, the link reconnects")
    func restart() async throws {
        let host = try LinkFixture.host()
        let first = LiveIssuer.server(host)
        let link: TCPIssuerLink = try await LiveIssuer.withRunning(first) {
            LiveIssuer.link(port: try await first.port)
        }
        let port = link.configuration.port
        try await LiveIssuer.withRunning(link) {
            // Nothing listens now: the request finds no connection.
            await #expect(throws: IssuerLinkError.unavailable) {
                try await link.send(LiveIssuer.echo(stan: 1), timeout: .milliseconds(200))
            }
            let second = IssuerServer(
                issuer: host, configuration: IssuerServer.Configuration(port: port),
                logger: LiveIssuer.logger("test.issuer-server"))
            try await LiveIssuer.withRunning(second) {
                _ = try await second.port
                // A request waits for the reconnection, within its timeout.
                let response = try await link.send(LiveIssuer.echo(stan: 2), timeout: .seconds(30))
                #expect(response[.systemTraceAuditNumber] == "000002")
            }
            // The server went away under the open connection; after a restart the link is back again.
            let third = IssuerServer(
                issuer: host, configuration: IssuerServer.Configuration(port: port),
                logger: LiveIssuer.logger("test.issuer-server"))
            try await LiveIssuer.withRunning(third) {
                _ = try await third.port
                // The link may not have seen the old connection close yet: a request sent on it is lost
                // (unavailable), and the next one goes out on the new connection.
                let response = try await Self.sendRetryingWhileUnavailable(LiveIssuer.echo(stan: 3), over: link)
                #expect(response[.systemTraceAuditNumber] == "000003")
            }
        }
    }

    @Test("a request that cannot be matched or encoded is refused before it is sent")
    func invalidRequests() async throws {
        try await LiveIssuer.withServerAndLink(try LinkFixture.host()) { _, link in
            var noSTAN = LiveIssuer.echo(stan: 1)
            noSTAN[.systemTraceAuditNumber] = nil
            await #expect(throws: IssuerLinkError.invalidRequest) { try await link.send(noSTAN, timeout: .seconds(1)) }
            var unencodable = LiveIssuer.echo(stan: 2)
            unencodable[.amount] = "not a number"
            await #expect(throws: IssuerLinkError.invalidRequest) {
                try await link.send(unencodable, timeout: .seconds(1))
            }
        }
    }

    /// Sends `request`, again while the link answers unavailable (at most 100 tries).
    static func sendRetryingWhileUnavailable(
        _ request: ISO8583Message, over link: TCPIssuerLink
    ) async throws -> ISO8583Message {
        var attempts = 1
        while true {
            let result: Result<ISO8583Message, IssuerLinkError>
            do {
                result = .success(try await link.send(request, timeout: .seconds(30)))
            } catch {
                result = .failure(error)
            }
            guard case .failure(let error) = result, error == .unavailable, attempts < 100 else { return try result.get() }
            attempts += 1
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
