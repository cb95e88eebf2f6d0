import AsyncHTTPClient
import Foundation
import GatewayAPI
import NIOCore
import NIOHTTP1

/// A request sent straight to a live gateway's port, not through the recording test client: for requests the API
/// does not document (an undeclared method, a body that is not JSON or is too large).
enum RawRequest {
    /// What came back.
    struct Answer {
        let status: UInt
        let headers: HTTPHeaders
        let body: Data
        /// The body as a problem, if it is one.
        var problem: Problem? { try? JSONDecoder.gatewayAPI.decode(Problem.self, from: body) }
    }

    /// `method path` on 127.0.0.1:`port` as `bearer`, with an `Idempotency-Key`; a body is declared (`.bytes`) or,
    /// `streamed`, sent in chunks of unknown length.
    static func send(
        port: Int, method: HTTPMethod, path: String, bearer: String, body: [UInt8]? = nil, streamed: Bool = false
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Idempotency-Key", value: UUID().uuidString)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            if streamed {
                let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
                for start in stride(from: 0, to: body.count, by: 4096) {
                    continuation.yield(ByteBuffer(bytes: body[start..<min(start + 4096, body.count)]))
                }
                continuation.finish()
                request.body = .stream(stream, length: .unknown)
            } else {
                request.body = .bytes(ByteBuffer(bytes: body))
            }
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        return Answer(status: response.status.code, headers: response.headers, body: bytes)
    }
}
