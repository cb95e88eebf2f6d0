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

@Suite("Request limits over a live port")
struct RequestLimitTests {
    @Test(
        "a body over 64 KiB is 413 payloadTooLarge naming the limit, declared or streamed, on every route",
        arguments: TestDatabases.kinds)
    func bodyTooLarge(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let port = try #require(gateway.client.port)
            // Valid JSON padded past the limit: only its size is wrong.
            let large = Array("{\"amount\": 1000, \"pad\": \"\(String(repeating: "x", count: 70_000))\"}".utf8)
            let routes: [(HTTPMethod, String, String)] = [
                (.POST, "/v1/payments", gateway.session), (.POST, "/v1/refunds", gateway.apiKey),
                (.POST, "/v1/payments/pay_x/capture", gateway.apiKey),
                (.POST, "/v1/devices/phone-9/prepare", gateway.readerToken),
                (.POST, "/v1/reader-tokens", gateway.apiKey), (.POST, "/v1/account-links", gateway.readerToken),
                (.POST, "/v1/applepay/payments", gateway.apiKey), (.GET, "/health", gateway.apiKey),
            ]
            for (method, path, bearer) in routes {
                let declared = try await RawRequest.send(
                    port: port, method: method, path: path, bearer: bearer, body: large, streamed: false)
                #expect(declared.status == 413, "\(method) \(path)")
                #expect(declared.problem?.code == "payloadTooLarge", "\(method) \(path)")
                #expect(declared.problem?.detail.contains("65536 bytes") == true, "\(method) \(path)")
            }
            // Streamed without a length: refused when the route reads past the limit.
            let streamed = try await RawRequest.send(
                port: port, method: .POST, path: "/v1/payments", bearer: gateway.session, body: large, streamed: true)
            #expect(streamed.status == 413 && streamed.problem?.code == "payloadTooLarge")
            // Nothing was authorised, and the gateway goes on serving.
            let list = try await gateway.get("/v1/payments").decoded(PaymentList.self)
            #expect(list.data.isEmpty)
            let card = try #require(TestCards.card(.approve, .visa))
            #expect(try await gateway.pay(try gateway.tapper(card)).status == .created)
        }
    }
}
