import TestMode
import _SQLStorage
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import HummingbirdTesting
import Issuer
import NIOCore
import Testing

@Suite("Rejections over a live port")
struct RejectionTests {
    /// Nothing happened: no payment, the issuer's balance untouched.
    static func expectNothingKept(_ gateway: LiveGateway, _ card: TestCard) async throws {
        let list = try await gateway.get("/v1/payments").decoded(PaymentList.self)
        #expect(list.data.isEmpty)
        #expect(try await gateway.balance(card) == TestCards.balance)
    }

    @Test(
        "card data that cannot become a 0100 is 400 cardDataInvalid naming the field; nothing kept, the read not spent",
        arguments: TestDatabases.kinds)
    func unsendableCardData(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let read = try await gateway.tapper(card).tap(amount: Amount(minorUnits: 1_000, currency: .eur))
            let expiry = try #require(read.expiry)
            let longTrack2 = try Track2EquivalentData(
                pan: read.pan, expiry: expiry, serviceCode: "201", discretionaryData: "12345678901234")
            // Field 55 past its 999 bytes: a proprietary TLV of 1,024 bytes after the read's own.
            let largeICC = read.iccData + [0xDF, 0x7F, 0x82, 0x04, 0x00] + [UInt8](repeating: 0x5A, count: 1_024)
            let cases: [(field: Int, data: CardAuthorizationData)] = [
                (23, read.with(panSequenceNumber: 10)), (23, read.with(panSequenceNumber: 255)),
                (35, read.with(track2: longTrack2)), (55, read.with(iccData: largeICC)),
            ]
            for (field, data) in cases {
                let sealed = try gateway.provisioning.cardDataKey.sealer().seal(
                    CardDataPayload(
                        deviceId: gateway.deviceId, merchantId: gateway.merchantId, createdAt: gateway.clock.now,
                        authorization: data))
                let request = CreatePaymentRequest(cardData: sealed, amount: 1_000, currency: "EUR")
                for _ in 0..<2 {
                    // Refused each time with the same error: the read was not spent (not cardDataReplayed).
                    let refused = try await gateway.post("/v1/payments", request)
                    #expect(refused.status.code == 400 && refused.problem?.code == "cardDataInvalid", "field \(field)")
                    #expect(refused.problem?.detail.contains("field \(field)") == true, "\(refused.text)")
                    #expect(!refused.text.contains(read.pan.digits))
                }
            }
            try await Self.expectNothingKept(gateway, card)
            #expect(!gateway.logs.text.contains(read.pan.digits))
        }
    }

    @Test(
        "stale, replayed, someone else's and unopenable card data get their typed errors",
        arguments: TestDatabases.kinds)
    func sealedCardData(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            func pay(_ sealed: SealedCardData, amount: Int = 1_000, currency: String = "EUR") async throws
                -> TestResponse
            {
                try await gateway.post(
                    "/v1/payments", CreatePaymentRequest(cardData: sealed, amount: amount, currency: currency))
            }
            let stale = try await gateway.sealedTap(tapper, createdAt: gateway.clock.now.addingTimeInterval(-61))
            let expired = try await pay(stale)
            #expect(expired.status.code == 410 && expired.problem?.code == "cardDataExpired")

            let foreign = try await gateway.sealedTap(tapper, deviceId: "someone-else")
            let forbidden = try await pay(foreign)
            #expect(forbidden.status.code == 403 && forbidden.problem?.code == "forbidden")

            var broken = try await gateway.sealedTap(tapper)
            broken = SealedCardData(
                keyId: broken.keyId, readId: broken.readId, deviceId: broken.deviceId, merchantId: broken.merchantId,
                encapsulatedKey: broken.encapsulatedKey, ciphertext: Data(broken.ciphertext.reversed()))
            let invalid = try await pay(broken)
            #expect(invalid.status.code == 400 && invalid.problem?.code == "cardDataInvalid")

            let mismatched = try await pay(try await gateway.sealedTap(tapper), amount: 999)
            #expect(mismatched.problem?.code == "amountMismatch")
            let badCurrency = try await pay(try await gateway.sealedTap(tapper), currency: "ABC")
            #expect(badCurrency.problem?.code == "invalidRequest")
            try await Self.expectNothingKept(gateway, card)

            let good = try await gateway.sealedTap(tapper)
            #expect(try await pay(good).status == .created)
            let replayed = try await pay(good)
            #expect(replayed.status.code == 409 && replayed.problem?.code == "cardDataReplayed")
            #expect(try await gateway.balance(card) == TestCards.balance - 1_000)
        }
    }

    /// A payment records its read in its own transaction, where nothing purges: the sweep forgets it once the
    /// read could no longer be opened anyway, and the read stays refused (now as expired).
    @Test("a paid read is forgotten by the sweep after its 60 s, and stays refused", arguments: TestDatabases.kinds)
    func openedReadsForgotten(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let request = try await gateway.paymentRequest(try gateway.tapper(card))
            #expect(try await gateway.post("/v1/payments", request).status == .created)
            func openedReads() async throws -> Int {
                try await gateway.application.database.query("SELECT COUNT(*) AS n FROM opened_reads")[0].integer("n")
            }
            #expect(try await openedReads() == 1)
            gateway.clock.advance(by: 61)
            // The sweep runs every 100 ms here.
            var remaining = try await openedReads()
            for _ in 0..<100 where remaining > 0 {
                try await Task.sleep(for: .milliseconds(50))
                remaining = try await openedReads()
            }
            #expect(remaining == 0)
            let again = try await gateway.post("/v1/payments", request)
            #expect(again.status.code == 410 && again.problem?.code == "cardDataExpired")
            #expect(try await gateway.balance(card) == TestCards.balance - 1_000)
        }
    }

    @Test("credentials: none, a reader token, another merchant's key", arguments: TestDatabases.kinds)
    func credentials(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .mastercard))
            let body = try await gateway.paymentRequest(try gateway.tapper(card))
            let anonymous = try await gateway.client.execute(
                uri: "/v1/payments", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: Array(try JSONEncoder.gatewayAPI.encode(body))))
            #expect(anonymous.status == .unauthorized && anonymous.problem?.code == "unauthorized")
            let garbage = try await gateway.post("/v1/payments", body, bearer: "not-a-token")
            #expect(garbage.status == .unauthorized)
            let other = try await MerchantRepository(database: gateway.application.database).create(
                name: "Other", country: .deu, currency: .eur, categoryCode: "5411", actor: "test",
                now: gateway.clock.now)
            let (_, otherKey) = try await APIKeyRepository(database: gateway.application.database).create(
                merchantId: other.id, actor: "test", now: gateway.clock.now)
            let foreign = try await gateway.post("/v1/payments", body, bearer: otherKey.value)
            #expect(foreign.problem?.code == "forbidden")
            // A reader token links and prepares; it neither pays nor sees payments.
            #expect(try await gateway.post("/v1/payments", body, bearer: gateway.readerToken).status == .unauthorized)
            let listed = try await gateway.client.execute(
                uri: "/v1/payments", method: .get, headers: .bearer(gateway.readerToken), body: nil)
            #expect(listed.status == .unauthorized)
            try await Self.expectNothingKept(gateway, card)
            // The merchant's own server may submit the read (API key); the read is then spent.
            #expect(try await gateway.post("/v1/payments", body, bearer: gateway.apiKey).status == .created)
            let notFound = try await gateway.client.execute(
                uri: "/v1/payments/pay_missing", method: .get, headers: .bearer(otherKey.value), body: nil)
            #expect(notFound.status == .notFound)
        }
    }

    @Test("malformed bodies name the field, never its value", arguments: TestDatabases.kinds)
    func malformedBodies(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            for body in [#"{"amount": 100}"#, #"{"cardData": 5, "amount": 1, "currency": "EUR"}"#, "not json"] {
                let response = try await gateway.client.execute(
                    uri: "/v1/payments", method: .post, headers: .bearer(gateway.session),
                    body: ByteBuffer(string: body))
                #expect(response.status == .badRequest && response.problem?.code == "invalidRequest", "\(body)")
            }
        }
    }
}

extension CardAuthorizationData {
    /// This read with one field replaced.
    func with(
        panSequenceNumber: UInt8? = nil, track2: Track2EquivalentData? = nil, iccData: [UInt8]? = nil
    ) -> CardAuthorizationData {
        CardAuthorizationData(
            mode: mode, iccData: iccData ?? self.iccData, pan: pan,
            panSequenceNumber: panSequenceNumber ?? self.panSequenceNumber, expiry: expiry,
            track2: track2 ?? self.track2)
    }
}
