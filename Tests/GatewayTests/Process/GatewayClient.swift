import AsyncHTTPClient
import Foundation
import GatewayAPI
import NIOCore
import NIOHTTP1

/// A plain HTTP client of a gateway process on the loopback, as a merchant's server or a reader SDK would be.
struct GatewayClient: Sendable {
    /// One answer: status, headers, the whole body.
    struct Reply: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: Data

        /// The body decoded as `T`.
        func decoded<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder.gatewayAPI.decode(T.self, from: body) }
        /// The body as a problem, nil when it is none.
        var problem: Problem? { try? decoded(Problem.self) }
        /// Whether the gateway replayed a stored answer (`Idempotent-Replayed: true`).
        var isReplayed: Bool { headers["Idempotent-Replayed"].first == "true" }
        /// The body as text, for failure messages.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let http: HTTPClient
    /// `http://127.0.0.1:PORT`.
    let baseURL: String

    /// Runs `body` with an HTTP client, shut down afterwards.
    static func withHTTPClient<Result: Sendable>(_ body: (HTTPClient) async throws -> Result) async throws -> Result {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let result: Result
        do {
            result = try await body(http)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        return result
    }

    /// `POST path` with a JSON body and an optional `Idempotency-Key`.
    func post(_ path: String, bearer: String, body: Data, idempotencyKey: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        request.body = .bytes(ByteBuffer(bytes: body))
        return try await execute(request, bearer: bearer)
    }

    /// `POST path` with `value` as JSON.
    func post(_ path: String, bearer: String, json value: some Encodable) async throws -> Reply {
        try await post(path, bearer: bearer, body: try JSONEncoder.gatewayAPI.encode(value))
    }

    /// `GET path`.
    func get(_ path: String, bearer: String) async throws -> Reply {
        try await execute(HTTPClientRequest(url: baseURL + path), bearer: bearer)
    }

    private func execute(_ request: HTTPClientRequest, bearer: String) async throws -> Reply {
        var request = request
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        let response = try await http.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 4 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView))
    }
}
