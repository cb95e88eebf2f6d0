import ContactlessTesting
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import HummingbirdTesting
import Issuer
import NIOCore
import Testing

/// A reader session acts for its own device: it lists, fetches and replays that device's payments only.
@Suite("Device isolation over a live port")
struct DeviceIsolationTests {
    @Test(
        "a reader session lists only its device's payments; the API key lists all; an unknown cursor is 400",
        arguments: TestDatabases.kinds)
    func listIsTheDevicesOwn(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let paid = try await gateway.pay(try gateway.tapper(card))
            #expect(paid.status == .created)
            let payment = try paid.decoded(Payment.self)
            let other = try await gateway.prepare(deviceId: "phone-2")

            let ownList = try await gateway.get("/v1/payments", bearer: gateway.session).decoded(PaymentList.self)
            #expect(ownList.data.map(\.id) == [payment.id])
            let otherList = try await gateway.get("/v1/payments", bearer: other.session.token)
            #expect(otherList.status == .ok)
            #expect(try otherList.decoded(PaymentList.self).data.isEmpty)
            let everything = try await gateway.get("/v1/payments").decoded(PaymentList.self)
            #expect(everything.data.map(\.id) == [payment.id])

            // A cursor must be a payment of the same list.
            let unknown = try await gateway.get("/v1/payments?startingAfter=pay_nosuchpayment")
            #expect(unknown.status == .badRequest && unknown.problem?.code == "invalidRequest")
            let foreign = try await gateway.get(
                "/v1/payments?startingAfter=\(payment.id)", bearer: other.session.token)
            #expect(foreign.status == .badRequest)
            let fine = try await gateway.get("/v1/payments?startingAfter=\(payment.id)")
            #expect(try fine.decoded(PaymentList.self).data.isEmpty)
        }
    }

    @Test(
        "another device replaying a device's idempotency key and body gets idempotencyKeyReused, not the payment",
        arguments: TestDatabases.kinds)
    func replayIsTheDevicesOwn(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let request = try await gateway.paymentRequest(try gateway.tapper(card))
            let first = try await gateway.post("/v1/payments", request, idempotencyKey: "order-1")
            #expect(first.status == .created)
            let other = try await gateway.prepare(deviceId: "phone-2")
            let replay = try await gateway.post(
                "/v1/payments", request, bearer: other.session.token, idempotencyKey: "order-1")
            #expect(replay.status.code == 409 && replay.problem?.code == "idempotencyKeyReused")
            #expect(!replay.text.contains(try first.decoded(Payment.self).id))
            // The device itself still gets its answer.
            let own = try await gateway.post("/v1/payments", request, idempotencyKey: "order-1")
            #expect(Data(own.body.readableBytesView) == Data(first.body.readableBytesView))
        }
    }
}
