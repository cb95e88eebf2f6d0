import Foundation
import GatewayAPI
import Hummingbird
import HTTPTypes
import NIOCore

/// `/v1/payments` and `/v1/refunds`: authorise sealed reads, send a PIN, capture, void, refund, list.
///
/// Every mutating route honours `Idempotency-Key` (``IdempotentResponder``). Routes need a caller (an API key or a
/// reader session); a reader session sees its own device's payments only.
struct PaymentController: Sendable {
    let service: PaymentService
    let idempotency: IdempotentResponder
    let metrics: GatewayMetrics

    func addRoutes(to group: some RouterMethods<GatewayRequestContext>) {
        group.post("v1/payments") { request, context in
            // The key is claimed with the payment's first write and the answer stored with its outcome: two
            // commits fewer per authorization.
            try await mutate(request, context, claimInFirstWrite: true) { (body: CreatePaymentRequest, caller, claim) in
                // Counted once the answer is this request's: a retry that ran up to the claim for nothing is not.
                let count = { @Sendable (result: String) in
                    guard let claim else { return metrics.recordAuthorization(result: result) }
                    claim.whenAnswered { metrics.recordAuthorization(result: result) }
                }
                do {
                    let answer = claim.map { IdempotentResponder.Answer(claim: $0, status: .created) }
                    let payment = try await service.authorize(body, caller: caller, answer: answer)
                    count(payment.status.rawValue)
                    return JSONResponse(payment, status: .created)
                } catch let error as GatewayAPIError {
                    count("\(error.code)")
                    throw error
                }
            }
        }
        group.get("v1/payments") { request, context in
            let caller = try Self.caller(context)
            let query = request.uri.queryParameters
            let status = try query.get("status").map { (text: String) throws(GatewayAPIError) in
                guard let status = PaymentStatus(rawValue: text) else {
                    throw GatewayAPIError(code: .invalidRequest, message: "status is not a payment status")
                }
                return status
            }
            let limit = try query.get("limit").map { (text: String) throws(GatewayAPIError) in
                guard let limit = Int(text) else {
                    throw GatewayAPIError(code: .invalidRequest, message: "limit must be a number")
                }
                return limit
            }
            let last4 = try query.get("last4").map { (text: String) throws(GatewayAPIError) in
                guard text.utf8.count == 4, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw GatewayAPIError(code: .invalidRequest, message: "last4 must be four digits")
                }
                return text
            }
            return JSONResponse(
                try await service.payments(
                    caller: caller, filter: PaymentFilter(status: status, last4: last4),
                    startingAfter: query.get("startingAfter"), limit: limit ?? 20))
        }
        group.get("v1/payments/:id") { _, context in
            JSONResponse(
                try await service.payment(try context.pathParameter("id"), caller: try Self.caller(context)))
        }
        group.post("v1/payments/:id/pin") { request, context in
            let id = try context.pathParameter("id")
            return try await mutate(request, context) { (body: PINSubmission, caller, _) in
                JSONResponse(try await service.submitPIN(body, paymentId: id, caller: caller))
            }
        }
        group.post("v1/payments/:id/capture") { request, context in
            let id = try context.pathParameter("id")
            return try await mutate(request, context) { (body: CaptureRequest, caller, _) in
                JSONResponse(try await service.capture(id, amount: body.amount, caller: caller))
            }
        }
        group.post("v1/payments/:id/void") { request, context in
            let id = try context.pathParameter("id")
            return try await mutate(request, context) { (_: EmptyBody, caller, _) in
                JSONResponse(try await service.void(id, caller: caller))
            }
        }
        group.post("v1/payments/:id/refunds") { request, context in
            let id = try context.pathParameter("id")
            return try await mutate(request, context) { (body: CreateRefundRequest, caller, _) in
                JSONResponse(try await service.refund(id, request: body, caller: caller), status: .created)
            }
        }
        group.get("v1/payments/:id/refunds") { _, context in
            JSONResponse(
                try await service.refunds(
                    ofPayment: try context.pathParameter("id"), caller: try Self.caller(context)))
        }
        group.post("v1/refunds") { request, context in
            try await mutate(request, context) { (body: CreateRefundRequest, caller, _) in
                JSONResponse(try await service.refundCard(body, caller: caller), status: .created)
            }
        }
    }

    /// Decodes the body as `Body` (an empty body decodes as `{}`), and runs `run` once per idempotency key (the
    /// key's claim, nil without one; with `claimInFirstWrite`, `run` claims it in its first writing transaction,
    /// see ``IdempotentResponder``).
    func mutate<Body: Decodable, Result: Encodable & Sendable>(
        _ request: Request, _ context: GatewayRequestContext, claimInFirstWrite: Bool = false,
        _ run: @escaping (Body, Caller, IdempotentResponder.Claim?) async throws -> JSONResponse<Result>
    ) async throws -> Response {
        let caller = try Self.caller(context)
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return try await idempotency.respond(
            to: request, body: buffer, merchantId: caller.merchantId, deviceId: caller.deviceId,
            claimInFirstWrite: claimInFirstWrite
        ) { claim in
            let bytes = buffer.readableBytes == 0 ? Data("{}".utf8) : Data(buffer.readableBytesView)
            let body: Body
            do {
                body = try APIRequestDecoder.decode(Body.self, from: bytes)
            } catch let error as GatewayAPIError {
                throw error
            } catch {
                throw GatewayAPIError(code: .invalidRequest, message: "the body is not JSON")
            }
            let result = try await run(body, caller, claim)
            // A request that stored its answer (the body encoded there) is answered with those bytes: not encoded twice.
            if let stored = claim?.stored { return stored.make(replayed: false) }
            return try result.response(from: request, context: context)
        }
    }

    /// The caller, if its credential is an API key or a reader session: a reader token (a merchant user's, for
    /// linking and prepare) must not list, capture, void or refund the merchant's payments.
    static func caller(_ context: GatewayRequestContext) throws(GatewayAPIError) -> Caller {
        try context.requireCaller(.apiKey, .readerSession)
    }

    /// A body that must be a JSON object (`{}` or one with fields the route ignores).
    private struct EmptyBody: Decodable {
        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            // A synthesized init of a struct without fields reads nothing, and would take `false` or `[]`.
            _ = try decoder.container(keyedBy: AnyKey.self)
        }
    }
}
