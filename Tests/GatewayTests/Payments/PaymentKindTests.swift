import _SQLStorage
import ContactlessTesting
import Crypto
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import HummingbirdTesting
import Issuer
import ReaderKernel
import Testing

@Suite("Verifications, card-present refunds, metrics and secrecy over a live port")
struct PaymentKindTests {
    @Test(
        "a card verification without an amount, and a card-present refund without a payment",
        arguments: TestDatabases.kinds)
    func verificationAndRefundRead(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            let read = try await gateway.sealedTap(tapper, minorUnits: 0)
            let response = try await gateway.post(
                "/v1/payments",
                CreatePaymentRequest(
                    cardData: read, amount: 0, currency: "EUR", kind: .verification, verificationReason: .saveCard))
            let verification = try response.decoded(Payment.self)
            #expect(verification.status == .succeeded && verification.kind == .verification, "\(response.text)")
            #expect(verification.amount == 0 && verification.issuer?.responseCode == "00")
            #expect(verification.verificationReason == .saveCard)
            #expect(try await gateway.balance(card) == TestCards.balance)
            let withAmount = try await gateway.post(
                "/v1/payments",
                CreatePaymentRequest(
                    cardData: try await gateway.sealedTap(tapper, minorUnits: 100), amount: 100, currency: "EUR",
                    kind: .verification))
            #expect(withAmount.problem?.code == "invalidRequest")

            let refundRead = try await gateway.sealedTap(tapper, minorUnits: 1_250, type: .refund)
            let refund = try await gateway.post(
                "/v1/refunds",
                CreateRefundRequest(amount: 1_250, reason: "returned", cardData: refundRead, currency: "EUR"))
            let created = try refund.decoded(Refund.self)
            #expect(
                created.paymentId == nil && created.amount == 1_250 && created.card?.last4 == "0119", "\(refund.text)")
            let replay = try await gateway.post(
                "/v1/refunds", CreateRefundRequest(amount: 1_250, cardData: refundRead, currency: "EUR"))
            #expect(replay.problem?.code == "cardDataReplayed")
        }
    }

    @Test("/metrics counts authorisations by result and times requests by route")
    func metrics() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            _ = try await gateway.pay(try gateway.tapper(try #require(TestCards.card(.approve, .visa))))
            _ = try await gateway.pay(try gateway.tapper(try #require(TestCards.card(.lost, .visa))))
            let metrics = try await gateway.client.execute(uri: "/metrics", method: .get, headers: [:], body: nil).text
            #expect(metrics.contains(#"gateway_authorizations_total{result="succeeded"} 1"#))
            #expect(metrics.contains(#"gateway_authorizations_total{result="declined"} 1"#))
            #expect(
                metrics.contains(#"gateway_http_request_duration_seconds_bucket{method="POST",route="/v1/payments""#))
        }
    }

    @Test(
        "no test card's PAN or track 2 in any log, response, audit row or stored text", arguments: TestDatabases.kinds)
    func secrecy(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            var bodies: [String] = []
            for behaviour in [TestCard.Behaviour.approve, .insufficientFunds, .onlinePINRequired, .issuerTimeout] {
                for scheme in TestCard.Scheme.allCases {
                    let card = try #require(TestCards.card(behaviour, scheme))
                    let response = try await gateway.pay(try gateway.tapper(card), captureMethod: .manual)
                    bodies.append(response.text)
                    if let payment = try? response.decoded(Payment.self), let request = payment.pinRequest {
                        let block = try PINBlock.encipherISO4(
                            pin: "9999", pan: card.pan, key: Array(gateway.provisioning.pinKey.key))
                        bodies.append(
                            try await gateway.post(
                                "/v1/payments/\(payment.id)/pin",
                                PINSubmission(pinToken: request.pinToken, pinBlock: block.hexString)
                            ).text)
                    }
                }
            }
            bodies.append(try await gateway.get("/v1/payments?limit=100").text)
            let audit = try await gateway.application.database.query("SELECT detail, action, actor FROM audit_log")
            let stored = try audit.map { "\(try $0.text("detail")) \(try $0.text("action")) \(try $0.text("actor"))" }
            let haystack = ([gateway.logs.text] + bodies + stored).joined(separator: "\n")
            #expect(!gateway.logs.text.isEmpty)
            for card in TestCards.all + TestCards.loadTestCards {
                #expect(!haystack.contains(card.pan), "PAN of \(card)")
                for separator in ["=", "D", "d"] {
                    #expect(!haystack.contains(card.pan + separator), "track 2 of \(card)")
                }
            }
        }
    }

    @Test(
        "no PAN is recoverable from the data directory without the key file: not with the public test keys, not in clear",
        arguments: TestDatabases.kinds)
    func dataAtRest(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            #expect(try await gateway.pay(try gateway.tapper(card)).status == .created)
            let rows = try await gateway.application.database.query(
                "SELECT keyed_pan, encrypted_pan FROM issuer_accounts")
            #expect(rows.count == (TestCards.all + TestCards.loadTestCards).count)
            // What anyone has without the key file: the test issuer's published data keys.
            let published = try IssuerKeys.test
            let publishedEncryptionKey = SymmetricKey(data: [UInt8](repeating: 0x22, count: 32))
            let keyedPANs = Set(try rows.map { try $0.blob("keyed_pan") })
            for card in TestCards.all + TestCards.loadTestCards {
                #expect(!keyedPANs.contains(published.keyedHash(of: try PAN(card.pan)).bytes), "\(card)")
            }
            for row in rows {
                let box = try AES.GCM.SealedBox(combined: try row.blob("encrypted_pan"))
                #expect(throws: (any Error).self) {
                    try AES.GCM.open(box, using: publishedEncryptionKey, authenticating: try row.blob("keyed_pan"))
                }
            }
            // With the key file's secret, the issuer finds its accounts.
            #expect(try await gateway.balance(card) == TestCards.balance - 1_000)
            // No file of the data directory but the key file holds a PAN in clear.
            let files = try FileManager.default.contentsOfDirectory(
                at: gateway.dataDirectory, includingPropertiesForKeys: nil)
            for file in files where file.lastPathComponent != GatewayKeys.fileName {
                let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
                for card in TestCards.all + TestCards.loadTestCards {
                    #expect(!text.contains(card.pan), "\(file.lastPathComponent): \(card)")
                }
            }
        }
    }
}
