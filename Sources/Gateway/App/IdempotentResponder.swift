import Crypto
import Foundation
import GatewayAPI
import Hummingbird
import HTTPTypes
import NIOCore

/// Runs a mutating request at most once per `Idempotency-Key`: the first request with a key runs and its response
/// (status and body, problems included) is stored; a retry with the same method, path and body gets that response
/// again for 24 h (header `Idempotent-Replayed: true`); a retry with other parameters gets
/// ``GatewayAPIError/Code/idempotencyKeyReused``; one that arrives while the first still runs waits for it (up to
/// ``waitLimit``), then gets ``GatewayAPIError/Code/idempotencyKeyInUse``.
///
/// A request without the header runs as it is: retrying it is not safe.
struct IdempotentResponder: Sendable {
    static let headerName = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    /// How long a claim is held before a retry may take over (longer than any request's issuer round trips).
    static let lease: TimeInterval = 30
    static let waitLimit: Duration = .seconds(10)

    let database: any SQLDatabase
    let clock: @Sendable () -> Date
    let store = IdempotencyStore()

    /// The response to `request` (whose body is `body`) for `merchantId`, from `run` or the stored one.
    func respond(
        to request: Request, body: ByteBuffer, merchantId: String, _ run: () async throws -> Response
    ) async throws -> Response {
        guard let key = request.headers[Self.headerName] else { return try await run() }
        guard (1...255).contains(key.utf8.count) else {
            throw GatewayAPIError(code: .invalidRequest, message: "Idempotency-Key must be 1 to 255 characters")
        }
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.uri.path)\n".utf8))
        hasher.update(data: Data(body.readableBytesView))
        let hash = Array(hasher.finalize())
        let started = ContinuousClock.now
        while true {
            switch try await store.claim(
                merchantId: merchantId, key: key, requestHash: hash, now: clock(), lease: Self.lease, on: database)
            {
            case .claimed:
                let response = try await Self.capture(run)
                try await store.complete(
                    merchantId: merchantId, key: key, status: response.status, body: response.body,
                    on: database)
                return response.make(replayed: false)
            case .completed(let status, let body):
                return StoredResponse(status: status, body: body).make(replayed: true)
            case .reused:
                throw GatewayAPIError(
                    code: .idempotencyKeyReused, message: "this Idempotency-Key was used with other parameters")
            case .inProgress:
                guard ContinuousClock.now - started < Self.waitLimit else {
                    throw GatewayAPIError(
                        code: .idempotencyKeyInUse, message: "a request with this Idempotency-Key is still running")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Runs `run` and collects its response; an API error becomes its problem response, stored like any answer.
    private static func capture(_ run: () async throws -> Response) async throws -> StoredResponse {
        var response: Response
        do {
            response = try await run()
        } catch let error as GatewayAPIError {
            response = ProblemMiddleware<GatewayRequestContext>.response(error)
        }
        var collected = ByteBuffer()
        let writer = CollectingWriter(buffer: collected)
        try await response.body.write(writer)
        collected = await writer.collected
        return StoredResponse(status: Int(response.status.code), body: Array(collected.readableBytesView))
    }

    private struct StoredResponse {
        let status: Int
        let body: [UInt8]

        func make(replayed: Bool) -> Response {
            let isProblem = status >= 400
            var headers: HTTPFields = [
                .contentType: isProblem ? Problem.mediaType : "application/json", .contentLength: "\(body.count)",
            ]
            if replayed { headers[IdempotentResponder.replayedHeader] = "true" }
            return Response(
                status: HTTPResponse.Status(code: status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }
}

/// Collects a response body written to it.
private actor CollectingWriter: ResponseBodyWriter {
    var collected: ByteBuffer

    init(buffer: ByteBuffer) { collected = buffer }

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collected.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
