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
import Logging
import NIOCore
import Testing

@Suite("Token revocation")
struct TokenRevocationTests {
    @Test(
        "a device's sessions, a user's reader tokens, all of a merchant's: revoked at once, new ones work",
        arguments: TestDatabases.kinds)
    func revocations(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let card = try #require(TestCards.card(.approve, .visa))
            let tapper = try gateway.tapper(card)
            let other = try await gateway.prepare(deviceId: "phone-2")
            func list(_ bearer: String) async throws -> TestResponse {
                try await gateway.get("/v1/payments", bearer: bearer)
            }
            func revoke(_ body: TokenRevocationRequest) async throws -> TestResponse {
                try await gateway.post("/v1/token-revocations", body, bearer: gateway.apiKey, idempotencyKey: nil)
            }
            #expect(try await list(gateway.session).status == .ok)

            // A lost phone: its sessions go, the other device's stay.
            let lost = try await revoke(TokenRevocationRequest(deviceId: gateway.deviceId))
            #expect(lost.status == .created)
            #expect(try lost.decoded(TokenRevocation.self).scope == .device)
            let refused = try await list(gateway.session)
            #expect(refused.status == .unauthorized && refused.problem?.code == "tokenRevoked")
            #expect(try await gateway.pay(tapper).problem?.code == "tokenRevoked")
            #expect(try await list(other.session.token).status == .ok)
            // A new prepare, a second later, gives a session that works.
            gateway.clock.advance(by: 1)
            let again = try await gateway.prepare(deviceId: gateway.deviceId)
            #expect(try await list(again.session.token).status == .ok)

            // A departed admin: their reader token cannot prepare any more; a new one can.
            let token = gateway.readerToken
            let userId = try #require(
                try await gateway.application.database.query(
                    "SELECT id FROM merchant_users WHERE merchant_id = $1", [.text(gateway.merchantId)]
                ).first?.text("id"))
            #expect(try await revoke(TokenRevocationRequest(userId: userId)).status == .created)
            let prepare = try await gateway.client.execute(
                uri: "/v1/devices/phone-3/prepare", method: .post, headers: .bearer(token), body: nil)
            #expect(prepare.status == .unauthorized && prepare.problem?.code == "tokenRevoked")
            #expect(try await list(again.session.token).status == .ok)

            // Everything of the merchant's; the API key is not a token and still works.
            #expect(try await revoke(TokenRevocationRequest()).status == .created)
            #expect(try await list(again.session.token).problem?.code == "tokenRevoked")
            #expect(try await list(other.session.token).problem?.code == "tokenRevoked")
            #expect(try await gateway.get("/v1/payments").status == .ok)

            let both = try await revoke(TokenRevocationRequest(deviceId: "a", userId: "b"))
            #expect(both.status == .badRequest && both.problem?.code == "invalidRequest")
            let notAPIKey = try await gateway.post(
                "/v1/token-revocations", TokenRevocationRequest(), bearer: other.session.token, idempotencyKey: nil)
            #expect(notAPIKey.status == .unauthorized)
        }
    }

    @Test("another node learns a revocation from the database on its next refresh", arguments: TestDatabases.kinds)
    func otherNode(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind) { database in
            let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            let merchant = try await MerchantRepository(database: database).create(
                name: "Shop", country: .deu, currency: .eur, categoryCode: "5411", actor: "test")
            let first = TokenRevocations(database: database, logger: quiet)
            let second = TokenRevocations(database: database, logger: quiet)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            _ = try await first.revoke(
                TokenRevocationRequest(deviceId: "phone-1"), merchantId: merchant.id, actor: "test", now: now)
            #expect(first.isRevoked(merchantId: merchant.id, deviceId: "phone-1", userId: nil, issuedAt: 1_800_000_000))
            #expect(
                !second.isRevoked(merchantId: merchant.id, deviceId: "phone-1", userId: nil, issuedAt: 1_800_000_000))
            try await second.refresh()
            #expect(
                second.isRevoked(merchantId: merchant.id, deviceId: "phone-1", userId: nil, issuedAt: 1_800_000_000))
            // Issued after the revoked second: valid; another device or merchant: valid.
            #expect(
                !second.isRevoked(merchantId: merchant.id, deviceId: "phone-1", userId: nil, issuedAt: 1_800_000_001))
            #expect(
                !second.isRevoked(merchantId: merchant.id, deviceId: "phone-2", userId: nil, issuedAt: 1_800_000_000))
            #expect(
                !second.isRevoked(merchantId: "mer_other", deviceId: "phone-1", userId: nil, issuedAt: 1_800_000_000))
        }
    }
}
