import TestMode
import _SQLStorage
import AsyncHTTPClient
import ContactlessTesting
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import HummingbirdTesting
import Issuer
import NIOCore
import NIOHTTP1
import Testing

@Suite("Idempotency over a live port")
struct IdempotencyTests {
    @Test(
        "same key and body: the stored answer again; other body: 409 idempotencyKeyReused",
        arguments: TestDatabases.kinds)
    func replayAndReuse(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let request = try await gateway.paymentRequest(try gateway.tapper(card))
            let sealed = request.cardData
            let first = try await gateway.post("/v1/payments", request, idempotencyKey: "order-17")
            let second = try await gateway.post("/v1/payments", request, idempotencyKey: "order-17")
            #expect(first.status == .created && second.status == .created)
            #expect(Data(first.body.readableBytesView) == Data(second.body.readableBytesView))
            #expect(second.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(first.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            let other = CreatePaymentRequest(cardData: sealed, amount: 1_000, currency: "EUR", captureMethod: .manual)
            let reused = try await gateway.post("/v1/payments", other, idempotencyKey: "order-17")
            #expect(reused.status.code == 409 && reused.problem?.code == "idempotencyKeyReused")
            #expect(try await gateway.balance(card) == TestCards.balance - 1_000)
            // A rejection is an answer too: replayed, not re-run (the read would now be a replay).
            let refund = CreateRefundRequest(amount: 5_000)
            let payment = try first.decoded(Payment.self)
            let tooMuch = try await gateway.post("/v1/payments/\(payment.id)/refunds", refund, idempotencyKey: "r-1")
            let tooMuchAgain = try await gateway.post(
                "/v1/payments/\(payment.id)/refunds", refund, idempotencyKey: "r-1")
            #expect(tooMuch.problem?.code == "amountExceedsAvailable" && tooMuchAgain.problem == tooMuch.problem)
        }
    }

    /// Answers that do not depend on running the request again: a retry whose read has gone stale still gets the
    /// payment, and a refusal is the key's answer like any other; neither counts in the metrics twice.
    @Test(
        "a retry after the read's 60 s still gets the stored payment; a refusal before any write is the key's answer",
        arguments: TestDatabases.kinds)
    func answersReachedBeforeTheClaim(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            let request = CreatePaymentRequest(
                cardData: try await gateway.sealedTap(tapper), amount: 1_000, currency: "EUR")
            let first = try await gateway.post("/v1/payments", request, idempotencyKey: "late-retry")
            #expect(first.status == .created)
            // The read is now stale (cardDataExpired if run again): the retry replays the payment instead.
            gateway.clock.advance(by: 120)
            let retry = try await gateway.post("/v1/payments", request, idempotencyKey: "late-retry")
            #expect(retry.status == .created && retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(Data(first.body.readableBytesView) == Data(retry.body.readableBytesView))
            // The same request under another key runs, and is refused before it writes anything: that refusal is
            // this key's answer, replayed to a retry.
            let refused = try await gateway.post("/v1/payments", request, idempotencyKey: "stale-read")
            #expect(refused.status.code == 410 && refused.problem?.code == "cardDataExpired")
            #expect(refused.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            let refusedAgain = try await gateway.post("/v1/payments", request, idempotencyKey: "stale-read")
            #expect(refusedAgain.problem == refused.problem)
            #expect(refusedAgain.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await gateway.balance(card) == TestCards.balance - 1_000)
            let exposition = try await gateway.client.execute(uri: "/metrics", method: .get, headers: [:], body: nil)
                .text
            // Counted once each: the replays ran nothing that counts.
            #expect(exposition.contains(#"gateway_authorizations_total{result="cardDataExpired"} 1"#), "\(exposition)")
            #expect(exposition.contains(#"gateway_authorizations_total{result="succeeded"} 1"#), "\(exposition)")
        }
    }

    /// The key is claimed in the payment's first transaction, which a replayed read rolls back: the refusal is
    /// still the key's answer (stored with the claim afterwards), and the first key's payment is untouched.
    @Test(
        "a read already paid under another key: cardDataReplayed, stored and replayed under the new key",
        arguments: TestDatabases.kinds)
    func refusalInsideTheClaimingTransaction(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let request = try await gateway.paymentRequest(try gateway.tapper(card))
            let paid = try await gateway.post("/v1/payments", request, idempotencyKey: "first")
            #expect(paid.status == .created)
            let replayed = try await gateway.post("/v1/payments", request, idempotencyKey: "second")
            #expect(replayed.problem?.code == "cardDataReplayed")
            #expect(replayed.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            let again = try await gateway.post("/v1/payments", request, idempotencyKey: "second")
            #expect(again.problem == replayed.problem && again.status == replayed.status)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let first = try await gateway.post("/v1/payments", request, idempotencyKey: "first")
            #expect(Data(first.body.readableBytesView) == Data(paid.body.readableBytesView))
            #expect(try await gateway.balance(card) == TestCards.balance - 1_000)
            #expect(try await gateway.get("/v1/payments").decoded(PaymentList.self).data.count == 1)
        }
    }

    @Test(
        "keys past the 24 h retention are deleted by the sweep; younger keys stay and replay",
        arguments: TestDatabases.kinds)
    func retention(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            let old = try await gateway.paymentRequest(tapper)
            #expect(try await gateway.post("/v1/payments", old, idempotencyKey: "old-key").status == .created)
            gateway.clock.advance(by: 23 * 3600)
            let young = try await gateway.paymentRequest(tapper)
            // The reader session has expired by now (12 h): the merchant's server sends these.
            let first = try await gateway.post(
                "/v1/payments", young, bearer: gateway.apiKey, idempotencyKey: "young-key")
            gateway.clock.advance(by: 2 * 3600)
            func keys() async throws -> [String] {
                try await gateway.application.database.query(
                    "SELECT idempotency_key FROM idempotency_keys ORDER BY idempotency_key"
                ).map { try $0.text("idempotency_key") }
            }
            // The sweep runs every 100 ms here.
            let deadline = ContinuousClock.now + .seconds(10)
            while try await keys().contains("old-key"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(first.status == .created, "\(first.text)")
            #expect(try await keys() == ["young-key"])
            let replay = try await gateway.post(
                "/v1/payments", young, bearer: gateway.apiKey, idempotencyKey: "young-key")
            #expect(replay.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(Data(replay.body.readableBytesView) == Data(first.body.readableBytesView))
        }
    }

    @Test("concurrent retries with one key: one authorisation, one capture, one refund", arguments: TestDatabases.kinds)
    func concurrentRetries(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .mastercard))
            let sealed = try await gateway.sealedTap(try gateway.tapper(card), minorUnits: 2_000)
            let port = try #require(gateway.client.port)
            let client = HTTPClient.shared
            let authorize = try JSONEncoder.gatewayAPI.encode(
                CreatePaymentRequest(cardData: sealed, amount: 2_000, currency: "EUR", captureMethod: .manual))
            let payments = try await Self.concurrently(
                8, client, port: port, path: "/v1/payments", body: authorize, bearer: gateway.session, key: "pay-1")
            #expect(payments.allSatisfy { $0.status == 201 }, "\(payments.map(\.status))")
            let ids = Set(try payments.map { try JSONDecoder.gatewayAPI.decode(Payment.self, from: $0.body).id })
            #expect(ids.count == 1)
            #expect(try await gateway.balance(card) == TestCards.balance - 2_000)
            let id = try #require(ids.first)

            let captures = try await Self.concurrently(
                8, client, port: port, path: "/v1/payments/\(id)/capture",
                body: try JSONEncoder.gatewayAPI.encode(CaptureRequest(amount: 1_500)), bearer: gateway.apiKey,
                key: "capture-1")
            #expect(captures.allSatisfy { $0.status == 200 }, "\(captures.map(\.status))")
            let refunds = try await Self.concurrently(
                8, client, port: port, path: "/v1/payments/\(id)/refunds",
                body: try JSONEncoder.gatewayAPI.encode(CreateRefundRequest(amount: 500)), bearer: gateway.apiKey,
                key: "refund-1")
            #expect(refunds.allSatisfy { $0.status == 201 }, "\(refunds.map(\.status))")
            let stored = try await gateway.get("/v1/payments/\(id)").decoded(Payment.self)
            #expect(stored.capturedAmount == 1_500 && stored.refundedAmount == 500)
            let list = try await gateway.get("/v1/payments/\(id)/refunds").decoded([Refund].self)
            #expect(list.count == 1)
            let all = try await gateway.get("/v1/payments").decoded(PaymentList.self)
            #expect(all.data.count == 1)
        }
    }

    struct Answer: Sendable {
        let status: UInt
        let body: Data
    }

    /// `count` identical POSTs at once, each on its own connection.
    static func concurrently(
        _ count: Int, _ client: HTTPClient, port: Int, path: String, body: Data, bearer: String, key: String
    ) async throws -> [Answer] {
        try await withThrowingTaskGroup(of: Answer.self) { group in
            for _ in 0..<count {
                group.addTask {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                    request.method = .POST
                    request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.headers.add(name: "Idempotency-Key", value: key)
                    request.body = .bytes(ByteBuffer(bytes: Array(body)))
                    let response = try await client.execute(request, timeout: .seconds(30))
                    let bytes = try await response.body.collect(upTo: 1 << 20)
                    return Answer(status: response.status.code, body: Data(bytes.readableBytesView))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
