import Foundation
import GatewayAPI
import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import _SQLStorage

/// Server-driven readers (``ReaderHub``), on both sides.
///
/// The merchant's side (an API key; the point-of-sale app through the console's session): `GET /v1/readers`,
/// `POST /v1/readers/{readerId}/commands`, `POST /v1/readers/{readerId}/cancel`, `GET /v1/readers/{readerId}/events`
/// (Server-Sent Events). The reader's side (its reader session, bound to its device): `GET /v1/reader/commands/next`
/// (long poll), and for its running command `…/events`, `…/read` (the sealed read, authorized here with
/// ``PaymentService`` as the command says), `…/pin`, `…/loyalty` (a loyalty read's pass) and `…/failure`.
struct ReaderController: Sendable {
    let hub: ReaderHub
    let payments: PaymentService
    let database: any SQLDatabase
    let logger: Logger

    /// The longest a reader's poll waits for work.
    static let maximumWait: Duration = .seconds(25)

    func addRoutes(to router: some RouterMethods<GatewayRequestContext>) {
        router.get("v1/readers") { _, context in
            let caller = try context.requireCaller(.apiKey)
            return JSONResponse(try await Self.readers(hub: hub, database: database, merchantId: caller.merchantId))
        }
        router.post("v1/readers/:readerId/commands") { request, context in
            let caller = try context.requireCaller(.apiKey)
            let body = try await APIRequestDecoder().decode(
                CreateReaderCommandRequest.self, from: request, context: context)
            return JSONResponse(
                try await Self.send(
                    body, to: try context.pathParameter("readerId"), merchantId: caller.merchantId, hub: hub,
                    database: database, logger: logger),
                status: .created)
        }
        router.post("v1/readers/:readerId/cancel") { _, context in
            let caller = try context.requireCaller(.apiKey)
            return JSONResponse(
                try await hub.cancel(readerId: try context.pathParameter("readerId"), merchantId: caller.merchantId))
        }
        router.get("v1/readers/:readerId/events") { request, context in
            let caller = try context.requireCaller(.apiKey)
            return try await Self.events(
                hub: hub, merchantId: caller.merchantId, readerId: try context.pathParameter("readerId"),
                request: request)
        }

        router.get("v1/reader/commands/next") { request, context in
            let key = try Self.readerKey(context)
            let query = request.uri.queryParameters
            var wait = Self.maximumWait
            if let text = query.get("wait") {
                guard let seconds = Double(text), (0...25).contains(seconds) else {
                    throw GatewayAPIError(code: .invalidRequest, message: "wait must be from 0 to 25 seconds")
                }
                wait = .milliseconds(Int(seconds * 1000))
            }
            // Never longer than half the timeout: a reader waiting is a reader online.
            wait = min(wait, .milliseconds(Int(hub.timeout * 500)))
            guard let instruction = await hub.nextInstruction(for: key, wait: wait, running: query.get("running"))
            else { return Response(status: .noContent) }
            return try JSONResponse(instruction).response(from: request, context: context)
        }
        router.post("v1/reader/commands/:commandId/events") { request, context in
            let key = try Self.readerKey(context)
            let body = try await APIRequestDecoder().decode(ReaderEventReport.self, from: request, context: context)
            try await hub.report(body.type, commandId: try context.pathParameter("commandId"), key: key)
            return Response(status: .noContent)
        }
        router.post("v1/reader/commands/:commandId/read") { request, context in
            let caller = try context.requireCaller(.readerSession)
            let body = try await APIRequestDecoder().decode(ReaderReadSubmission.self, from: request, context: context)
            return JSONResponse(
                try await authorize(body, commandId: try context.pathParameter("commandId"), caller: caller))
        }
        router.post("v1/reader/commands/:commandId/pin") { request, context in
            let caller = try context.requireCaller(.readerSession)
            let body = try await APIRequestDecoder().decode(PINSubmission.self, from: request, context: context)
            return JSONResponse(
                try await submitPIN(body, commandId: try context.pathParameter("commandId"), caller: caller))
        }
        router.post("v1/reader/commands/:commandId/loyalty") { request, context in
            let key = try Self.readerKey(context)
            let body = try await APIRequestDecoder().decode(ReaderLoyaltyResult.self, from: request, context: context)
            return JSONResponse(
                try await hub.loyaltyRead(body, commandId: try context.pathParameter("commandId"), key: key))
        }
        router.post("v1/reader/commands/:commandId/failure") { request, context in
            let key = try Self.readerKey(context)
            let body = try await APIRequestDecoder().decode(ReaderFailureReport.self, from: request, context: context)
            return JSONResponse(
                try await hub.readerFailed(commandId: try context.pathParameter("commandId"), key: key, body))
        }
    }

    // MARK: - The merchant's side

    /// The merchant's prepared devices, each with its connection and command.
    static func readers(hub: ReaderHub, database: any SQLDatabase, merchantId: String) async throws -> ReaderList {
        let rows = try await database.query(
            """
            SELECT d.id, d.provisioned_at, u.last_used_at FROM merchant_devices d
            LEFT JOIN device_merchant_uses u ON u.device_id = d.id AND u.merchant_id = d.merchant_id
            WHERE d.merchant_id = $1
            """, [.text(merchantId)])
        let live = await hub.statuses(merchantId: merchantId)
        var list: [ReaderStatus] = []
        for row in rows {
            let id = try row.text("id")
            let prepared = Date(millis: try row.optionalInteger("last_used_at") ?? row.integer("provisioned_at"))
            var status = live[id] ?? ReaderStatus(id: id, online: false)
            status.lastPreparedAt = prepared
            list.append(status)
        }
        list.sort { ($0.online ? 0 : 1, $0.id) < ($1.online ? 0 : 1, $1.id) }
        return ReaderList(data: list)
    }

    /// Sends a command to one of the merchant's prepared devices.
    static func send(
        _ request: CreateReaderCommandRequest, to readerId: String, merchantId: String, hub: ReaderHub,
        database: any SQLDatabase, logger: Logger?
    ) async throws -> ReaderCommand {
        let known = try await database.query(
            "SELECT 1 FROM merchant_devices WHERE merchant_id = $1 AND id = $2", [.text(merchantId), .text(readerId)])
        guard !known.isEmpty else { throw GatewayAPIError(code: .notFound, message: "no reader \(readerId)") }
        let command = try await hub.send(request, to: readerId, merchantId: merchantId)
        logger?.info(
            "reader command sent",
            metadata: ["merchant": "\(merchantId)", "reader": "\(readerId)", "command": "\(command.id)"])
        return command
    }

    /// The reader's events as Server-Sent Events: those after `Last-Event-ID` (or `?after=`) that are kept, then
    /// each as it happens; a comment every 15 s keeps proxies from closing the stream.
    static func events(hub: ReaderHub, merchantId: String, readerId: String, request: Request) async throws
        -> Response
    {
        let after = (request.headers[HTTPField.Name("Last-Event-ID")!] ?? request.uri.queryParameters.get("after"))
            .flatMap { Int($0) }
        let events = await hub.subscribe(merchantId: merchantId, readerId: readerId, after: after)
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                // The events and a keep-alive tick, merged into one stream the writer drains.
                let (lines, sink) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(500))
                let pump = Task {
                    for await event in events { if let line = try? Self.serverSentEvent(event) { sink.yield(line) } }
                    sink.finish()
                }
                let ticks = Task {
                    while (try? await Task.sleep(for: .seconds(15))) != nil {
                        sink.yield(Array(": keep-alive\n\n".utf8))
                    }
                }
                defer {
                    pump.cancel()
                    ticks.cancel()
                }
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                // Ends when the client goes (a write fails) or the gateway stops (the hub finishes the stream).
                for await line in lines { try await writer.write(ByteBuffer(bytes: line)) }
                try await writer.finish(nil)
            })
    }

    static func serverSentEvent(_ event: ReaderEvent) throws -> [UInt8] {
        let data = try JSONEncoder.gatewayAPI.encode(event)
        return Array("id: \(event.sequence)\nevent: \(event.type.rawValue)\ndata: ".utf8) + Array(data)
            + Array("\n\n".utf8)
    }

    // MARK: - The reader's side

    /// Authorizes the running command's read as the command says: a payment, a verification, or a refund to the
    /// card. The answer is the command as it is then: completed, or (the issuer asked for the PIN) in progress with
    /// the payment and its PIN request.
    func authorize(_ submission: ReaderReadSubmission, commandId: String, caller: Caller) async throws
        -> ReaderCommand
    {
        let key = try Self.readerKey(caller)
        let command = try await hub.beginAuthorization(commandId: commandId, key: key)
        do {
            switch command.type {
            case .payment, .verification:
                let isPayment = command.type == .payment
                let payment = try await payments.authorize(
                    CreatePaymentRequest(
                        cardData: submission.cardData, amount: isPayment ? command.amount ?? 0 : 0,
                        currency: command.currency, kind: isPayment ? .purchase : .verification,
                        captureMethod: command.captureMethod, verificationReason: command.verificationReason),
                    caller: caller)
                if payment.status == .requiresPIN,
                    let waiting = await hub.awaitPIN(
                        payment, loyalty: submission.loyalty, commandId: commandId, key: key)
                {
                    return waiting
                }
                return try await ended(
                    commandId, key, .completed, ReaderCommandResult(payment: payment, loyalty: submission.loyalty))
            case .refund:
                let refund = try await payments.refundCard(
                    CreateRefundRequest(
                        amount: command.amount, cardData: submission.cardData, currency: command.currency),
                    caller: caller)
                return try await ended(commandId, key, .completed, ReaderCommandResult(refund: refund))
            case .loyalty:
                preconditionFailure("beginAuthorization refuses a loyalty read")
            }
        } catch let error as GatewayAPIError {
            try await ended(commandId, key, .failed, ReaderCommandResult(failure: .init(error)))
            throw error
        }
    }

    /// Sends the PIN the reader captured for the command's payment; the command completes with the payment's
    /// outcome. An incorrect PIN with tries left keeps it waiting for another.
    func submitPIN(_ submission: PINSubmission, commandId: String, caller: Caller) async throws -> ReaderCommand {
        let key = try Self.readerKey(caller)
        let paymentId = try await hub.paymentAwaitingPIN(commandId: commandId, key: key)
        do {
            let payment = try await payments.submitPIN(submission, paymentId: paymentId, caller: caller)
            return try await ended(commandId, key, .completed, ReaderCommandResult(payment: payment))
        } catch let error as GatewayAPIError where error.code == .incorrectPIN {
            throw error
        } catch let error as GatewayAPIError {
            let payment = try? await payments.payment(paymentId, caller: caller)
            try await ended(commandId, key, .failed, ReaderCommandResult(payment: payment, failure: .init(error)))
            throw error
        }
    }

    @discardableResult
    private func ended(
        _ commandId: String, _ key: ReaderHub.Key, _ status: ReaderCommand.Status, _ result: ReaderCommandResult
    ) async throws -> ReaderCommand {
        guard let command = await hub.end(commandId: commandId, key: key, status, result) else {
            throw GatewayAPIError(code: .invalidState, message: "command \(commandId) is not running")
        }
        return command
    }

    // MARK: - Support

    private static func readerKey(_ context: GatewayRequestContext) throws(GatewayAPIError) -> ReaderHub.Key {
        try readerKey(try context.requireCaller(.readerSession))
    }

    private static func readerKey(_ caller: Caller) throws(GatewayAPIError) -> ReaderHub.Key {
        guard let device = caller.deviceId else {
            throw GatewayAPIError(code: .unauthorized, message: "this call takes a reader session")
        }
        return ReaderHub.Key(merchantId: caller.merchantId, readerId: device)
    }
}

extension ReaderCommandResult.Failure {
    /// A failure from the gateway's problem: its code and message.
    init(_ error: GatewayAPIError) {
        self.init(code: error.code.description, message: error.message)
    }
}
