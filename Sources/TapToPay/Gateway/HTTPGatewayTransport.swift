public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The PSP's API over HTTP with AsyncHTTPClient: keep-alive connections to `baseURL`, bodies streamed as they
/// arrive.
public struct HTTPGatewayTransport: GatewayTransport {
    /// Where the API lives, e.g. `https://psp.example` or `http://127.0.0.1:8080`.
    public let baseURL: String
    private let client: HTTPClient
    private let timeout: TimeAmount

    /// A transport to `baseURL` on `client` (the shared client by default), each request given `timeout`.
    public init(baseURL: String, client: HTTPClient = .shared, timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = client
        let (seconds, attoseconds) = timeout.components
        self.timeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Sends `request`; the body streams chunk by chunk.
    public func send(_ request: GatewayRequest) async throws -> GatewayResponse {
        var outgoing = HTTPClientRequest(url: baseURL + request.path)
        outgoing.method = request.method == .get ? .GET : .POST
        outgoing.headers.add(name: "Authorization", value: "Bearer \(request.bearer)")
        outgoing.headers.add(name: "Accept", value: "application/json, application/x-ndjson")
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(outgoing, timeout: timeout)
        let chunks = ChunkIterator(base: response.body.makeAsyncIterator())
        return GatewayResponse(
            status: Int(response.status.code),
            body: AsyncThrowingStream { try await chunks.next() })
    }

    /// The response body's iterator behind a class, so the stream's unfolding closure can hold it; the stream
    /// calls it from one consumer at a time.
    private final class ChunkIterator: @unchecked Sendable {
        private var base: HTTPClientResponse.Body.AsyncIterator

        init(base: HTTPClientResponse.Body.AsyncIterator) { self.base = base }

        func next() async throws -> Data? {
            guard let buffer = try await base.next() else { return nil }
            return Data(buffer.readableBytesView)
        }
    }
}
