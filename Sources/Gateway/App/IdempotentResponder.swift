import Crypto
import Foundation
import GatewayAPI
import Hummingbird
import HTTPTypes
import NIOCore
import _SQLStorage

/// Runs a mutating request at most once per `Idempotency-Key`: the first request with a key runs and its response
/// (status and body, problems included) is stored; a retry with the same method, path and body gets that response
/// again for 24 h (header `Idempotent-Replayed: true`); a retry with other parameters gets
/// ``GatewayAPIError/Code/idempotencyKeyReused``; one that arrives while the first still runs waits for it (up to
/// ``waitLimit``), then gets ``GatewayAPIError/Code/idempotencyKeyInUse``.
///
/// The key is claimed before the request runs, or — for a request that says so (`claimInFirstWrite`) — in the
/// request's own first writing transaction (``Claim/acquire(on:)``): one transaction fewer. Until then the request
/// only reads and computes, so a request that loses the key there has done nothing, and its work is dropped for
/// the key's answer.
///
/// Keys are the merchant's, and a reader session's requests are its device's: the device is part of what a key was
/// used with, so another device reusing a key gets ``GatewayAPIError/Code/idempotencyKeyReused``, never the first
/// device's answer.
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
    let store: IdempotencyStore

    /// The response to `request` (whose body is `body`) for `merchantId` and, for a reader session, `deviceId`,
    /// from `run` or the stored one. `run` gets
    /// the key it runs under (nil without the header); it may store its answer itself (``Claim``), and, with
    /// `claimInFirstWrite`, must claim the key in its first writing transaction (``Claim/acquire(on:)``).
    func respond(
        to request: Request, body: ByteBuffer, merchantId: String, deviceId: String?, claimInFirstWrite: Bool = false,
        _ run: (Claim?) async throws -> Response
    ) async throws -> Response {
        guard let key = request.headers[Self.headerName] else { return try await run(nil) }
        guard (1...255).contains(key.utf8.count) else {
            throw GatewayAPIError(code: .invalidRequest, message: "Idempotency-Key must be 1 to 255 characters")
        }
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.uri.path)\n".utf8))
        if let deviceId { hasher.update(data: Data("device \(deviceId)\n".utf8)) }
        body.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        let hash = Array(hasher.finalize())
        let started = ContinuousClock.now
        let claimKey = { (answer: StoredResponse?) in
            try await store.claim(
                merchantId: merchantId, key: key, requestHash: hash, now: clock(), lease: Self.lease,
                answer: answer.map { ($0.status, $0.body) }, on: database)
        }
        var outcome: IdempotencyStore.Claim
        if claimInFirstWrite {
            let claim = Claim(merchantId: merchantId, key: key, store: store, pending: (hash, Self.lease, clock))
            do {
                let response = try await Self.capture(claim) { try await run(claim) }
                if claim.isHeld { return try await answer(response, for: claim) }
                // Refused before its first write: the refusal is the key's answer, stored with the claim in one
                // transaction — unless another request has the key.
                outcome = try await claimKey(response)
                if outcome == .claimed {
                    claim.answered()
                    return response.make(replayed: false)
                }
            } catch let lost as Claim.Lost {
                outcome = lost.outcome
                // The response may come from a commit not yet on disk.
                if case .completed = outcome { try await database.waitUntilDurable() }
            }
        } else {
            outcome = try await claimKey(nil)
        }
        while true {
            switch outcome {
            case .claimed:
                let claim = Claim(merchantId: merchantId, key: key, store: store, pending: nil)
                return try await answer(try await Self.capture(claim) { try await run(claim) }, for: claim)
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
                outcome = try await claimKey(nil)
            }
        }
    }

    /// Answers with `response`, the request's own under the key it holds: stored, unless the request's own last
    /// transaction stored it.
    private func answer(_ response: StoredResponse, for claim: Claim) async throws -> Response {
        if claim.stored == nil {
            try await store.complete(
                merchantId: claim.merchantId, key: claim.key, status: response.status, body: response.body,
                on: database)
        }
        claim.answered()
        return response.make(replayed: false)
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
    /// The key a request runs under. A request may store its answer in its own last transaction rather than in one
    /// more commit afterwards: ``write(status:body:on:)`` in that transaction, then, once it has committed,
    /// ``didStore(status:body:)``; the responder then answers with exactly that.
    final class Claim: @unchecked Sendable {
        /// Thrown by ``acquire(on:)`` when another request has the key or answered it; the transaction it fails
        /// rolls back, and the responder answers with what the key has.
        struct Lost: Error {
            let outcome: IdempotencyStore.Claim
        }

        let merchantId: String
        let key: String
        let store: IdempotencyStore
        /// What claiming the key takes, for a key not yet claimed (nil: claimed before the request ran).
        private let pending: (requestHash: [UInt8], lease: TimeInterval, clock: @Sendable () -> Date)?
        private let lock = NSLock()
        private var answer: StoredResponse?
        private var committed = false
        private var onAnswer: [@Sendable () -> Void] = []

        init(
            merchantId: String, key: String, store: IdempotencyStore,
            pending: (requestHash: [UInt8], lease: TimeInterval, clock: @Sendable () -> Date)?
        ) {
            self.merchantId = merchantId
            self.key = key
            self.store = store
            self.pending = pending
        }

        /// Whether the request holds the key: claimed before it ran, or by a committed ``acquire(on:)``.
        var isHeld: Bool { pending == nil || lock.withLock { committed } }

        /// Claims the key on `executor`, the request's first writing transaction, before it writes anything else
        /// (a key already held is only linked), naming the payment the transaction makes, if any: after a crash,
        /// that payment's outcome answers the key. Once that transaction has committed, call ``didCommit()``.
        /// - Throws: ``Lost`` when another request has the key or answered it.
        func acquire(on executor: any SQLExecutor, paymentId: String? = nil) async throws {
            guard let pending, !isHeld else {
                if let paymentId {
                    try await store.link(
                        merchantId: merchantId, key: key, paymentId: paymentId, on: executor)
                }
                return
            }
            let outcome = try await store.claim(
                merchantId: merchantId, key: key, requestHash: pending.requestHash, now: pending.clock(),
                lease: pending.lease, paymentId: paymentId, on: executor)
            guard outcome == .claimed else { throw Lost(outcome: outcome) }
        }

        /// The transaction that ran ``acquire(on:)`` has committed: the request holds the key.
        func didCommit() {
            lock.withLock { committed = true }
        }

        /// Runs `action` once the request's own answer is the key's answer — not when a stored answer replaces it
        /// (a request that claims in its first write may have run up to there for nothing).
        func whenAnswered(_ action: @escaping @Sendable () -> Void) {
            lock.withLock { onAnswer.append(action) }
        }

        /// The request's own answer is the key's answer.
        fileprivate func answered() {
            for action in lock.withLock({ onAnswer }) { action() }
        }

        /// Stores the answer on `executor`, a transaction's.
        func write(
            status: HTTPResponse.Status, body: [UInt8], on executor: any SQLExecutor
        ) async throws(StorageError) {
            try await store.complete(
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
