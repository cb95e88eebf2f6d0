import TestMode
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import HummingbirdTesting
import Issuer
import Testing

@Suite("Online PIN over a live port")
struct PINFlowTests {
    /// The reader's PIN block: ISO 9564 format 4 under the device's PIN key from prepare.
    static func pinBlock(_ pin: String, card: TestCard, _ gateway: LiveGateway) throws -> String {
        try PINBlock.encipherISO4(pin: pin, pan: card.pan, key: Array(gateway.provisioning.pinKey.key)).hexString
    }

    static func requirePIN(_ card: TestCard, _ gateway: LiveGateway) async throws -> Payment {
        let response = try await gateway.pay(try gateway.tapper(card), minorUnits: 1_500)
        let payment = try response.decoded(Payment.self)
        #expect(payment.status == .requiresPIN, "\(response.text)")
        return payment
    }

    @Test(
        "PIN required → a wrong PIN is refused → the right PIN approves the same read", arguments: TestDatabases.kinds)
    func wrongThenRightPIN(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.onlinePINRequired, .visa))
            let payment = try await Self.requirePIN(card, gateway)
            let request = try #require(payment.pinRequest)
            #expect(request.expiresAt.timeIntervalSince(gateway.clock.now) <= 55)
            let wrong = try await gateway.post(
                "/v1/payments/\(payment.id)/pin",
                PINSubmission(pinToken: request.pinToken, pinBlock: try Self.pinBlock("0000", card: card, gateway)))
            #expect(wrong.problem?.code == "incorrectPIN", "\(wrong.text)")
            let right = try await gateway.post(
                "/v1/payments/\(payment.id)/pin",
                PINSubmission(
                    pinToken: request.pinToken, pinBlock: try Self.pinBlock(TestCards.pin, card: card, gateway)))
            let approved = try right.decoded(Payment.self)
            #expect(approved.status == .succeeded && approved.capturedAmount == 1_500, "\(right.text)")
            #expect(try await gateway.balance(card) == TestCards.balance - 1_500)
            // Decided: the PIN token is spent.
            let again = try await gateway.post(
                "/v1/payments/\(payment.id)/pin",
                PINSubmission(
                    pinToken: request.pinToken, pinBlock: try Self.pinBlock(TestCards.pin, card: card, gateway)))
            #expect(again.problem?.code == "pinNotAllowed")
        }
    }

    @Test("three wrong PINs: pinTryExceeded, the payment declined", arguments: TestDatabases.kinds)
    func pinTryExceeded(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.incorrectPIN, .mastercard))
            let payment = try await Self.requirePIN(card, gateway)
            let token = try #require(payment.pinRequest?.pinToken)
            var codes: [String?] = []
            for _ in 0..<3 {
                let response = try await gateway.post(
                    "/v1/payments/\(payment.id)/pin",
                    PINSubmission(pinToken: token, pinBlock: try Self.pinBlock(TestCards.pin, card: card, gateway)))
                codes.append(response.problem?.code)
            }
            #expect(codes == ["incorrectPIN", "incorrectPIN", "pinTryExceeded"])
            let stored = try await gateway.get("/v1/payments/\(payment.id)").decoded(Payment.self)
            #expect(stored.status == .declined && stored.failureCode == "pinTryExceeded")
            #expect(try await gateway.balance(card) == TestCards.balance)
        }
    }

    @Test(
        "a PIN later than 55 s after the read, a wrong token, or a garbage block is refused",
        arguments: TestDatabases.kinds)
    func pinWindow(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.onlinePINRequired, .mastercard))
            let payment = try await Self.requirePIN(card, gateway)
            let token = try #require(payment.pinRequest?.pinToken)
            let block = try Self.pinBlock(TestCards.pin, card: card, gateway)
            let wrongToken = try await gateway.post(
                "/v1/payments/\(payment.id)/pin", PINSubmission(pinToken: "pin_other", pinBlock: block))
            #expect(wrongToken.problem?.code == "pinNotAllowed")
            let garbage = try await gateway.post(
                "/v1/payments/\(payment.id)/pin", PINSubmission(pinToken: token, pinBlock: "zz"))
            #expect(garbage.problem?.code == "invalidRequest")
            gateway.clock.advance(by: 56)
            let late = try await gateway.post(
                "/v1/payments/\(payment.id)/pin", PINSubmission(pinToken: token, pinBlock: block))
            #expect(late.problem?.code == "pinNotAllowed")
            #expect(try await gateway.balance(card) == TestCards.balance)
        }
    }
}
