import TestMode
import _SQLStorage
import ContactlessTesting
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import HummingbirdTesting
import Issuer
import Testing

@Suite("Payments over a live port")
struct PaymentFlowTests {
    @Test("tap → sealed data → authorise → capture → refunds, on each database", arguments: TestDatabases.kinds)
    func purchaseLifecycle(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            let authorized = try await gateway.pay(tapper, minorUnits: 1_000, captureMethod: .manual)
            #expect(authorized.status == .created, "\(authorized.text)")
            let payment = try authorized.decoded(Payment.self)
            #expect(payment.status == .requiresCapture)
            #expect(payment.issuer?.responseCode == "00" && payment.issuer?.approvalCode?.count == 6)
            #expect(payment.issuer?.authenticationData != nil)
            #expect(payment.card?.bin == "476173" && payment.card?.last4 == "0119" && payment.card?.scheme == "visa")
            #expect(try await gateway.balance(card) == TestCards.balance - 1_000)

            let captured = try await gateway.post("/v1/payments/\(payment.id)/capture", CaptureRequest(amount: 600))
            #expect(try captured.decoded(Payment.self).status == .succeeded)
            #expect(try captured.decoded(Payment.self).capturedAmount == 600)
            let again = try await gateway.post("/v1/payments/\(payment.id)/capture", CaptureRequest())
            #expect(again.problem?.code == "invalidState")

            let first = try await gateway.post("/v1/payments/\(payment.id)/refunds", CreateRefundRequest(amount: 200))
            #expect(first.status == .created)
            gateway.clock.advance(by: 1)
            let rest = try await gateway.post("/v1/payments/\(payment.id)/refunds", CreateRefundRequest())
            #expect(try rest.decoded(Refund.self).amount == 400)
            let over = try await gateway.post("/v1/payments/\(payment.id)/refunds", CreateRefundRequest(amount: 1))
            #expect(over.problem?.code == "amountExceedsAvailable")
            let refunds = try await gateway.get("/v1/payments/\(payment.id)/refunds")
            #expect(try refunds.decoded([Refund].self).map(\.amount) == [200, 400])
            let stored = try await gateway.get("/v1/payments/\(payment.id)")
            #expect(try stored.decoded(Payment.self).refundedAmount == 600)
        }
    }

    @Test("automatic capture, a void, and the list shows BIN and last four", arguments: TestDatabases.kinds)
    func captureMethodsAndVoid(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .mastercard))
            let tapper = try gateway.tapper(card)
            let automatic = try await gateway.pay(tapper, minorUnits: 250).decoded(Payment.self)
            #expect(automatic.status == .succeeded && automatic.capturedAmount == 250)
            gateway.clock.advance(by: 1)
            let manual = try await gateway.pay(tapper, minorUnits: 700, captureMethod: .manual).decoded(Payment.self)
            #expect(try await gateway.balance(card) == TestCards.balance - 950)
            let voided = try await gateway.post("/v1/payments/\(manual.id)/void", [String: String]())
            #expect(try voided.decoded(Payment.self).status == .canceled, "\(voided.text)")
            // The void reversed the authorisation at the issuer.
            #expect(try await gateway.balance(card) == TestCards.balance - 250)
            let list = try await gateway.get("/v1/payments?limit=1").decoded(PaymentList.self)
            #expect(list.data.map(\.id) == [manual.id] && list.hasMore)
            let next = try await gateway.get("/v1/payments?limit=5&startingAfter=\(manual.id)").decoded(
                PaymentList.self)
            #expect(next.data.map(\.id) == [automatic.id] && !next.hasMore)
            let byLast4 = try await gateway.get("/v1/payments?last4=1513").decoded(PaymentList.self)
            #expect(byLast4.data.count == 2)
            #expect(!list.data[0].card.map { "\($0)" }!.contains(card.pan))
        }
    }

    @Test("payment ids carry their creation time first, so they sort (and index) in creation order")
    func idsSortByCreation() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            var ids: [String] = []
            for _ in 0..<3 {
                ids.append(try await gateway.pay(tapper, minorUnits: 100).decoded(Payment.self).id)
                try await Task.sleep(for: .milliseconds(2))  // ids made in the same millisecond have no order
            }
            #expect(ids == ids.sorted() && Set(ids).count == 3, "\(ids)")
            // prefix, 9 time characters, 20 random ones, from one alphabet without 0, 1, l and o
            let alphabet = Set("23456789abcdefghijkmnpqrstuvwxyz")
            #expect(
                ids.allSatisfy {
                    $0.hasPrefix("pay_") && $0.count == 33 && $0.dropFirst(4).allSatisfy(alphabet.contains)
                })
        }
    }

    @Test("declines carry the issuer's reason", arguments: TestDatabases.kinds)
    func declines(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let expected: [(TestCard.Behaviour, String)] = [
                (.insufficientFunds, "insufficientFunds"), (.lost, "lostCard"), (.stolen, "stolenCard"),
                (.expired, "expiredCard"), (.doNotHonour, "doNotHonour"),
            ]
            for (behaviour, failure) in expected {
                let card = try #require(TestCards.card(behaviour, .visa))
                let response = try await gateway.pay(try gateway.tapper(card), minorUnits: 900)
                let payment = try response.decoded(Payment.self)
                #expect(payment.status == .declined && payment.failureCode == failure, "\(behaviour)")
            }
        }
    }

    @Test(
        "an issuer that does not answer: 504 issuerUnavailable, the payment failed and reversed",
        arguments: TestDatabases.kinds)
    func issuerTimeout(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.issuerTimeout, .mastercard))
            let response = try await gateway.pay(try gateway.tapper(card))
            #expect(response.status == .gatewayTimeout)
            #expect(response.problem?.code == "issuerUnavailable")
            let list = try await gateway.get("/v1/payments").decoded(PaymentList.self)
            let payment = try #require(list.data.first)
            #expect(payment.status == .failed && payment.failureCode == "issuerUnavailable")
            // The reversal went at once and the issuer acknowledged it (it never approved: `25`, nothing to undo), so
            // no PAN-bearing reversal message is kept.
            let row = try #require(
                try await gateway.application.database.query(
                    "SELECT reversal_message, next_reversal_at FROM payments WHERE id = $1", [.text(payment.id)]
                ).first)
            #expect(try row.optionalBlob("reversal_message") == nil && row.optionalInteger("next_reversal_at") == nil)
            let audit = try await gateway.application.database.query(
                "SELECT action FROM audit_log WHERE entity_id = $1 ORDER BY id", [.text(payment.id)])
            #expect(try audit.map { try $0.text("action") }.prefix(3) == ["created", "failed", "reversed"])
        }
    }
}
