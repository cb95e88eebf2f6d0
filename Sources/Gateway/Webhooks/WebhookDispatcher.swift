import AsyncHTTPClient
import Foundation
import GatewayAPI
import Logging
import NIOCore
import NIOHTTP1
public import ServiceLifecycle

/// Sends the outbox's due webhook deliveries every second: each a POST of the event's JSON, signed
/// (``WebhookSignature``), with a 10 s timeout; a 2xx delivers it, anything else (a status, a refused connection, a
/// timeout) schedules the next attempt (``WebhookOutbox/backoff(afterAttempt:)``). Every attempt is recorded, with
/// the first 500 bytes of the answer, for the console's delivery log.
public final class WebhookDispatcher: Service, Sendable {
    private let outbox: WebhookOutbox
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private let startup: StartupGate?

    init(outbox: WebhookOutbox, clock: @escaping @Sendable () -> Date, logger: Logger, startup: StartupGate?) {
        self.outbox = outbox
        self.clock = clock
        self.logger = logger
        self.startup = startup
    }

    /// Sends due deliveries every second until the service group shuts down. The HTTP client lives as long as this
    /// (no redirects followed: a delivery goes to the endpoint registered, nowhere else).
    public func run() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        await StartupGate.repeatEvery(.seconds(1), after: startup, logger: logger, failure: "webhooks not sent") {
            _ = try await self.deliverDue(with: client)
        }
        try await client.shutdown()
    }

    /// Sends what is due now; how many were sent.
    @discardableResult
    func deliverDue(with client: HTTPClient) async throws -> Int {
        let due = try await outbox.due(now: clock(), limit: 20)
        await withTaskGroup(of: Void.self) { group in
            for delivery in due { group.addTask { await self.send(delivery, with: client) } }
        }
        return due.count
    }

    /// An endpoint whose name now resolves to this machine or a private network: the attempt fails, recorded so.
    private struct LocalEndpointRefused: Error, CustomStringConvertible {
        var description: String { "the endpoint's name resolves to a private network address" }
    }

    private func send(_ delivery: WebhookOutbox.Due, with client: HTTPClient) async {
        let started = ContinuousClock.now
        let body = Array(delivery.payload.utf8)
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "contactless-webhooks/1")
        request.headers.add(
            name: WebhookSignature.headerName,
            value: WebhookSignature.header(body: body, secret: delivery.secret, timestamp: clock()))
        request.body = .bytes(ByteBuffer(bytes: body))
        var status: Int?
        var failure: String?
        var answer: String?
        do {
            // A name re-pointed inside since it was registered is not followed there.
            if !outbox.allowsLocalEndpoints, let host = URL(string: delivery.url)?.host,
                await WebhookOutbox.reachesLocal(host.lowercased())
            {
                throw LocalEndpointRefused()
            }
            let response = try await client.execute(request, timeout: .seconds(10))
            status = Int(response.status.code)
            answer = String(buffer: try await response.body.collect(upTo: 4_096))
        } catch {
            failure = "\(type(of: error)): \(String(describing: error).prefix(200))"
        }
        let elapsed = ContinuousClock.now - started
        do {
            try await outbox.record(
                delivery, at: clock(), status: status, error: failure, response: answer,
                duration: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        } catch {
            logger.error("webhook attempt not recorded", metadata: ["delivery": "\(delivery.id)"])
        }
    }
}
