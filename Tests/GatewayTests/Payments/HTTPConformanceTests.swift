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

@Suite("HTTP conformance over a live port")
struct HTTPConformanceTests {
    @Test("percent-encoded path parameters are decoded", arguments: TestDatabases.kinds)
    func percentEncodedPaths(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let provisioning = try await gateway.prepare(deviceId: "till%3A7")
            #expect(provisioning.deviceId == "till:7")
            #expect(try await gateway.prepare(deviceId: "till%3a8").deviceId == "till:8")
            let card = try #require(TestCards.card(.approve, .visa))
            let payment = try await gateway.pay(try gateway.tapper(card)).decoded(Payment.self)
            let encoded = payment.id.replacingOccurrences(of: "_", with: "%5F")
            let fetched = try await gateway.get("/v1/payments/\(encoded)")
            #expect(fetched.status == .ok)
            #expect(try fetched.decoded(Payment.self).id == payment.id)
        }
    }

    @Test(
        "bodies that are not JSON are refused on every route, a trailing comma included", arguments: TestDatabases.kinds
    )
    func strictJSON(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let port = try #require(gateway.client.port)
            let card = try #require(TestCards.card(.approve, .visa))
            let valid = String(
                decoding: try JSONEncoder.gatewayAPI.encode(try await gateway.paymentRequest(try gateway.tapper(card))),
                as: UTF8.self)
            // The same payment with a trailing comma before the last brace.
            let trailing = String(valid.dropLast()) + ",}"
            let bodies = [trailing, "{\"amount\": 1000,}", "[1,]", "{\"amount\": 01}", "{\"amount\": 1} x", "{'a': 1}"]
            let routes: [(HTTPMethod, String, String)] = [
                (.POST, "/v1/payments", gateway.session), (.POST, "/v1/refunds", gateway.apiKey),
                (.POST, "/v1/reader-tokens", gateway.apiKey), (.POST, "/v1/account-links", gateway.readerToken),
                (.POST, "/v1/applepay/payments", gateway.apiKey),
            ]
            for (method, path, bearer) in routes {
                for body in bodies {
                    let answer = try await RawRequest.send(
                        port: port, method: method, path: path, bearer: bearer, body: Array(body.utf8))
                    #expect(
                        answer.status == 400 && answer.problem?.code == "invalidRequest", "\(path) \(body.suffix(20))")
                }
            }
            // Nothing was paid, and the well-formed body still pays.
            #expect(try await gateway.balance(card) == TestCards.balance)
            let paid = try await RawRequest.send(
                port: port, method: .POST, path: "/v1/payments", bearer: gateway.session, body: Array(valid.utf8))
            #expect(paid.status == 201)
        }
    }

    @Test(
        "currency codes are three upper-case letters, as the spec's pattern says; a refund is in its payment's",
        arguments: TestDatabases.kinds)
    func currencyCase(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            for code in ["eur", "Eur", "EURO", "XXQ"] {
                let request = CreatePaymentRequest(
                    cardData: try await gateway.sealedTap(tapper), amount: 1_000, currency: code)
                let refused = try await gateway.post("/v1/payments", request)
                #expect(refused.status == .badRequest && refused.problem?.code == "invalidRequest", "\(code)")
            }
            #expect(try await gateway.balance(card) == TestCards.balance)

            // A refund of a payment is in its currency and to its card: another currency or card data is refused.
            let paid = try await gateway.pay(tapper).decoded(Payment.self)
            let refunds = "/v1/payments/\(paid.id)/refunds"
            let otherCurrency = try await gateway.post(
                refunds, CreateRefundRequest(amount: 100, currency: "USD"), bearer: gateway.apiKey)
            #expect(otherCurrency.status == .badRequest && otherCurrency.problem?.code == "invalidRequest")
            let invalidCurrency = try await gateway.post(
                refunds, CreateRefundRequest(amount: 100, currency: "CHY*"), bearer: gateway.apiKey)
            #expect(invalidCurrency.status == .badRequest)
            let withCard = try await gateway.post(
                refunds, CreateRefundRequest(amount: 100, cardData: try await gateway.sealedTap(tapper)),
                bearer: gateway.apiKey)
            #expect(withCard.status == .badRequest)
            let same = try await gateway.post(
                refunds, CreateRefundRequest(amount: 100, currency: "EUR"), bearer: gateway.apiKey)
            #expect(same.status == .created, "\(same.text)")
        }
    }

    @Test(
        "an undeclared method on a served path is 405 with Allow; an unknown path stays 404",
        arguments: TestDatabases.kinds)
    func methodNotAllowed(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let port = try #require(gateway.client.port)
            let cases: [(HTTPMethod, String, String)] = [
                (.DELETE, "/v1/payments", "GET, POST"), (.PUT, "/v1/payments/pay_1", "GET"),
                (.GET, "/v1/payments/pay_1/capture", "POST"), (.POST, "/health", "GET"),
                (.PATCH, "/v1/devices/phone-1/prepare", "POST"),
            ]
            for (method, path, allow) in cases {
                let answer = try await RawRequest.send(port: port, method: method, path: path, bearer: gateway.apiKey)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.problem?.code == "methodNotAllowed", "\(method) \(path)")
                #expect(answer.headers["Allow"].first == allow, "\(method) \(path)")
            }
            let unknown = try await RawRequest.send(
                port: port, method: .GET, path: "/v1/nothing", bearer: gateway.apiKey)
            #expect(unknown.status == 404 && unknown.problem?.code == "notFound")
        }
    }
}
