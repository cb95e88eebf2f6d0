import ContactlessTesting
import Foundation
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Issuer
import NIOCore
import Testing
import TestMode

@testable import Gateway

/// Webhooks from a live gateway to a live receiver: signed, retried after a failure from the durable outbox, logged.
@Suite("Webhooks", .serialized)
struct WebhookTests {
    /// What the receiver got, and what it answers next.
    final class Receiver: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var requests: [(signature: String, body: Data)] = []
        var failuresLeft = 0

        func take(_ signature: String, _ body: Data) -> HTTPResponse.Status {
            lock.withLock {
                requests.append((signature, body))
                if failuresLeft > 0 {
                    failuresLeft -= 1
                    return .internalServerError
                }
                return .ok
            }
        }

        var count: Int { lock.withLock { requests.count } }
        var all: [(signature: String, body: Data)] { lock.withLock { requests } }
    }

    static func withReceiver(_ receiver: Receiver, _ body: @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let status = receiver.take(
                request.headers[HTTPField.Name(WebhookSignature.headerName)!] ?? "", Data(bytes.readableBytesView))
            return Response(status: status)
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in try await body(try #require(client.port)) }
    }

    /// The endpoint's delivery log once `condition` holds (or after 5 s).
    static func log(
        _ outbox: WebhookOutbox, _ endpoint: WebhookOutbox.Endpoint, _ gateway: LiveGateway,
        until condition: ([WebhookOutbox.Delivery]) -> Bool
    ) async throws -> [WebhookOutbox.Delivery] {
        var log: [WebhookOutbox.Delivery] = []
        for _ in 0..<100 {
            log = try await outbox.deliveries(endpointId: endpoint.id, merchantId: gateway.merchantId)
            if condition(log) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return log
    }

    static func waitFor(_ condition: @Sendable () -> Bool) async throws {
        for _ in 0..<100 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
        #expect(condition())
    }

    @Test(arguments: TestDatabases.kinds)
    func paymentsAndRefundsAreSignedRetriedAndLogged(_ kind: TestDatabases.Kind) async throws {
        let receiver = Receiver()
        try await Self.withReceiver(receiver) { port in
            try await LiveGateway.with(kind) { gateway in
                let outbox = WebhookOutbox(
                    database: gateway.application.database, keys: gateway.application.keys, allowsLocalEndpoints: true)
                let (endpoint, secret) = try await outbox.addEndpoint(
                    merchantId: gateway.merchantId, url: "http://127.0.0.1:\(port)/hook", actor: "test",
                    now: gateway.clock.now)
                #expect(secret.hasPrefix("whsec_"))
                receiver.failuresLeft = 1
                let tapper = try gateway.tapper(try #require(TestCards.card(.approve, .visa)))
                let payment = try await gateway.pay(tapper, minorUnits: 1_500).decoded(Payment.self)
                // The dispatcher's loop sends it within a second; the receiver fails it once.
                try await Self.waitFor { receiver.count == 1 }
                // The attempt is recorded once the answer is in: wait for it too.
                var log = try await Self.log(outbox, endpoint, gateway) { $0.first?.attempts == 1 }
                #expect(log.first?.state == "pending" && log.first?.attempts == 1 && log.first?.lastStatus == 500)
                // After the backoff the same event comes again, and is taken.
                gateway.clock.advance(by: WebhookOutbox.backoff(afterAttempt: 1))
                try await Self.waitFor { receiver.count == 2 }
                log = try await Self.log(outbox, endpoint, gateway) { $0.first?.state == "delivered" }
                #expect(log.first?.state == "delivered" && log.first?.attempts == 2)
                let (first, second) = (receiver.all[0], receiver.all[1])
                #expect(first.body == second.body)
                let event = try JSONDecoder.gatewayAPI.decode(WebhookEvent.self, from: second.body)
                #expect(event.type == .paymentSucceeded && event.data.payment?.id == payment.id)
                #expect(
                    WebhookSignature.verify(
                        header: second.signature, body: second.body, secret: secret, now: gateway.clock.now))
                #expect(
                    !WebhookSignature.verify(
                        header: second.signature, body: second.body + Data(" ".utf8), secret: secret,
                        now: gateway.clock.now))
                #expect(
                    !WebhookSignature.verify(
                        header: second.signature, body: second.body, secret: "whsec_other", now: gateway.clock.now))
                #expect(
                    !WebhookSignature.verify(
                        header: second.signature, body: second.body, secret: secret,
                        now: gateway.clock.now.addingTimeInterval(301)))

                _ = try await gateway.post(
                    "/v1/payments/\(payment.id)/refunds", CreateRefundRequest(amount: 500), bearer: gateway.apiKey)
                try await Self.waitFor { receiver.count == 3 }
                let refund = try JSONDecoder.gatewayAPI.decode(WebhookEvent.self, from: receiver.all[2].body)
                #expect(refund.type == .refundCreated && refund.data.refund?.amount == 500)

                try await outbox.sendTestEvent(
                    endpointId: endpoint.id, merchantId: gateway.merchantId, now: gateway.clock.now)
                try await Self.waitFor { receiver.count == 4 }
                #expect(try JSONDecoder.gatewayAPI.decode(WebhookEvent.self, from: receiver.all[3].body).type == .test)
                // Nothing secret in the logs.
                #expect(!gateway.logs.text.contains(secret))
            }
        }
    }

    @Test func endpointsAreHTTPSAndNotLocalUnlessAllowed() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            let strict = WebhookOutbox(database: gateway.application.database, keys: gateway.application.keys)
            for url in [
                "http://example.com/hook", "ftp://shop.example/x", "not a url", "https://127.0.0.1/hook",
                "https://10.1.2.3/hook", "https://192.168.0.1/hook", "https://169.254.169.254/latest",
                "https://[::1]/x",
                "http://localhost:8080/hook", "https://172.20.0.1/hook",
            ] {
                await #expect(throws: DomainError.self, "\(url)") {
                    _ = try await strict.addEndpoint(
                        merchantId: gateway.merchantId, url: url, actor: "t", now: gateway.clock.now)
                }
            }
            _ = try await strict.addEndpoint(
                merchantId: gateway.merchantId, url: "https://shop.example/hooks", actor: "t", now: gateway.clock.now)
            // A name is resolved: this machine's own name points inside (here 127.0.0.1, on Debian 127.0.1.1).
            let name = ProcessInfo.processInfo.hostName.lowercased()
            let addresses = WebhookOutbox.resolvedAddresses(of: name)
            try #require(!addresses.isEmpty, "this machine's name \(name) does not resolve")
            #expect(!WebhookOutbox.isLocal(name))
            if addresses.contains(where: WebhookOutbox.isLocal) {
                await #expect(throws: DomainError.self) {
                    _ = try await strict.addEndpoint(
                        merchantId: gateway.merchantId, url: "https://\(name)/hook", actor: "t",
                        now: gateway.clock.now)
                }
            }
            #expect(WebhookOutbox.resolvedAddresses(of: "localhost").contains { $0 == "127.0.0.1" || $0 == "::1" })
            let local = WebhookOutbox(
                database: gateway.application.database, keys: gateway.application.keys, allowsLocalEndpoints: true)
            _ = try await local.addEndpoint(
                merchantId: gateway.merchantId, url: "http://127.0.0.1:9/hook", actor: "t", now: gateway.clock.now)
        }
    }

    @Test func aDisabledEndpointGetsNothingMore() async throws {
        let receiver = Receiver()
        try await Self.withReceiver(receiver) { port in
            try await LiveGateway.with(.sqlite) { gateway in
                let outbox = WebhookOutbox(
                    database: gateway.application.database, keys: gateway.application.keys, allowsLocalEndpoints: true)
                let (endpoint, _) = try await outbox.addEndpoint(
                    merchantId: gateway.merchantId, url: "http://127.0.0.1:\(port)/hook", actor: "t",
                    now: gateway.clock.now)
                receiver.failuresLeft = 100
                try await outbox.sendTestEvent(
                    endpointId: endpoint.id, merchantId: gateway.merchantId, now: gateway.clock.now)
                try await Self.waitFor { receiver.count == 1 }
                _ = try await Self.log(outbox, endpoint, gateway) { $0.first?.attempts == 1 }
                try await outbox.disable(
                    endpointId: endpoint.id, merchantId: gateway.merchantId, actor: "t", now: gateway.clock.now)
                // Another merchant cannot disable (or audit) it: nothing happens.
                try await outbox.disable(
                    endpointId: endpoint.id, merchantId: "mer_other", actor: "t", now: gateway.clock.now)
                let log = try await outbox.deliveries(endpointId: endpoint.id, merchantId: gateway.merchantId)
                #expect(log.first?.state == "canceled")
                gateway.clock.advance(by: WebhookOutbox.backoff(afterAttempt: 1) + 1)
                try await outbox.sendTestEvent(
                    endpointId: endpoint.id, merchantId: gateway.merchantId, now: gateway.clock.now)
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(receiver.count == 1)
                let audit = try await AuditLog.entries(
                    on: gateway.application.database, entity: "webhook_endpoint", entityId: endpoint.id)
                #expect(audit.filter { $0.action == "disabled" }.count == 1)
            }
        }
    }

    @Test func backoffGrowsAndEnds() {
        #expect(WebhookOutbox.backoff(afterAttempt: 1) == 10)
        #expect(WebhookOutbox.backoff(afterAttempt: 2) == 40)
        #expect(WebhookOutbox.backoff(afterAttempt: 7) == 40_960)
    }
}
