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

    /// The response to `request` (whose body is `body`) for `merchantId`, from `run` or the stored one. `run` gets
    /// the key it runs under (nil without the header); it may store its answer itself (``Claim``).
    func respond(
        to request: Request, body: ByteBuffer, merchantId: String, _ run: (Claim?) async throws -> Response
    ) async throws -> Response {
        guard let key = request.headers[Self.headerName] else { return try await run(nil) }
        guard (1...255).contains(key.utf8.count) else {
            throw GatewayAPIError(code: .invalidRequest, message: "Idempotency-Key must be 1 to 255 characters")
        }
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.uri.path)\n".utf8))
        body.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        let hash = Array(hasher.finalize())
        let started = ContinuousClock.now
        while true {
            switch try await store.claim(
                merchantId: merchantId, key: key, requestHash: hash, now: clock(), lease: Self.lease, on: database)
            {
            case .claimed:
                let claim = Claim(merchantId: merchantId, key: key)
                let response = try await Self.capture(claim) { try await run(claim) }
                // Stored by the request's own last transaction: that is the answer a retry gets, so it is this one's.
                if claim.stored != nil { return response.make(replayed: false) }
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
    /// When the request stored its answer itself (`claim`), that answer is the response, and what `run` returned is
    /// not read.
    private static func capture(_ claim: Claim, _ run: () async throws -> Response) async throws -> StoredResponse {
        var response: Response
        do {
            response = try await run()
        } catch let error as GatewayAPIError {
            response = ProblemMiddleware<GatewayRequestContext>.response(error)
        }
        if let stored = claim.stored { return stored }
        var collected = ByteBuffer()
        let writer = CollectingWriter(buffer: collected)
        try await response.body.write(writer)
        collected = await writer.collected
        return StoredResponse(status: Int(response.status.code), body: Array(collected.readableBytesView))
    }

    struct StoredResponse: Sendable {
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

extension IdempotentResponder {
    /// The key a request runs under, for a request that stores its answer in its own last transaction rather than
    /// in one more commit afterwards: ``write(status:body:on:)`` in that transaction, then, once it has committed,
    /// ``didStore(status:body:)``; the responder then answers with exactly that.
    final class Claim: @unchecked Sendable {
        let merchantId: String
        let key: String
        private let lock = NSLock()
        private var answer: StoredResponse?

        init(merchantId: String, key: String) {
            self.merchantId = merchantId
            self.key = key
        }

        /// Stores the answer on `executor`, a transaction's.
        func write(
            status: HTTPResponse.Status, body: [UInt8], on executor: any SQLExecutor
        ) async throws(StorageError) {
            try await IdempotencyStore().complete(
                merchantId: merchantId, key: key, status: Int(status.code), body: body, on: executor)
        }

        /// The transaction that wrote the answer has committed.
        func didStore(status: HTTPResponse.Status, body: [UInt8]) {
            lock.withLock { answer = StoredResponse(status: Int(status.code), body: body) }
        }

        /// The answer stored, if the request stored one.
        var stored: StoredResponse? { lock.withLock { answer } }
    }

    /// A claimed key and the status its request answers with when it succeeds: what a service needs to store the
    /// answer in its last transaction.
    struct Answer: Sendable {
        let claim: Claim
        let status: HTTPResponse.Status

        /// Stores `body` as the answer on `executor`, the request's last transaction.
        func write(_ body: [UInt8], on executor: any SQLExecutor) async throws(StorageError) {
            try await claim.write(status: status, body: body, on: executor)
        }

        /// The transaction that wrote `body` has committed.
        func didStore(_ body: [UInt8]) {
            claim.didStore(status: status, body: body)
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
