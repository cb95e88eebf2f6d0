import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The load generator's HTTP client: keep-alive HTTP/1.1 connections to one server on the loopback, at most
/// `connections` of them, on NIO's shared event loops.
struct LoadClient: Sendable {
    /// One answer: its status and body.
    struct Answer: Sendable {
        var status: Int
        var body: ByteBuffer

        /// Whether the body holds `needle` byte for byte (the API's JSON has no spaces, keys sorted).
        func contains(_ needle: [UInt8]) -> Bool {
            // Over the bytes in place: the generic search on a copy cost 2 % of the load's CPU.
            body.withUnsafeReadableBytes { haystack in
                needle.withUnsafeBytes { needle in
                    guard let base = haystack.baseAddress, let pattern = needle.baseAddress, !needle.isEmpty,
                        haystack.count >= needle.count
                    else { return needle.isEmpty }
                    return (0...(haystack.count - needle.count)).contains { offset in
                        haystack[offset] == needle[0] && memcmp(base + offset, pattern, needle.count) == 0
                    }
                }
            }
        }
    }

    let client: HTTPClient
    let baseURL: String

    /// A client for `http://host:port` with up to `connections` connections.
    init(host: String, port: Int, connections: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.httpVersion = .http1Only
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        baseURL = "http://\(host):\(port)"
    }

    /// Sends one request and collects the answer (bodies over 1 MiB are an error).
    func send(
        _ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], body: ByteBuffer? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        return Answer(status: Int(response.status.code), body: try await response.body.collect(upTo: 1 << 20))
    }

    /// Closes the connections.
    func shutdown() async throws {
        try await client.shutdown()
    }
}
