import TestMode
import ContactlessTesting
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Identity endpoints over the router")
struct IdentityRouterTests {
    @Test("authentication: none, garbage, unknown or revoked key, expired token", arguments: TestDatabases.kinds)
    func authentication(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.seedMerchant()
            let token = try await fixture.readerToken(shop, lifetime: 60)
            let (revokedKey, revokedSecret) = try await fixture.apiKeys.create(
                merchantId: shop.merchant.id, actor: "test")
            #expect(try await fixture.apiKeys.revoke(id: revokedKey.id, merchantId: shop.merchant.id, actor: "test"))
            let app = try fixture.application()
            try await app.test(.router) { client in
                let cases: [(HTTPFields, HTTPResponse.Status, String)] = [
                    ([:], .unauthorized, "unauthorized"),
                    ([.authorization: "Basic Zm9vOmJhcg=="], .unauthorized, "unauthorized"),
                    ([.authorization: "Bearer"], .unauthorized, "unauthorized"),
                    ([.authorization: "Bearer-\(token)"], .unauthorized, "unauthorized"),
                    (.bearer("not-a-jwt"), .unauthorized, "invalidReaderToken"),
                    (.bearer("sk_unknown"), .unauthorized, "unauthorized"),
                    (.bearer(revokedSecret.value), .unauthorized, "unauthorized"),
                ]
                for (headers, status, code) in cases {
                    let response = try await client.execute(uri: "/v1/account-links", method: .get, headers: headers)
                    #expect(response.status == status)
                    #expect(response.problem?.code == code)
                }
                // The scheme in any case; spaces and tabs around the credential do not count.
                let spaced = try await client.execute(
                    uri: "/v1/account-links", method: .get, headers: [.authorization: "bEaReR \t\(token) \t"])
                #expect(spaced.status == .ok)
                fixture.clock.advance(by: 60)
                let expired = try await client.execute(uri: "/v1/account-links", method: .get, headers: .bearer(token))
                #expect(expired.status == .unauthorized)
                #expect(expired.problem?.code == "tokenExpired")
            }
        }
    }

    @Test(
        "POST /v1/reader-tokens: API key only, the merchant's own users, lifetime at most 24 h",
        arguments: TestDatabases.kinds)
    func readerTokens(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.seedMerchant("Shop")
            let other = try await fixture.seedMerchant("Other")
            let app = try fixture.application()
            try await app.test(.router) { client in
                let created = try await client.execute(
                    uri: "/v1/reader-tokens", method: .post, headers: .bearer(shop.secret.value),
                    body: ReaderTokenRequest(userId: shop.staff.id, allowsRelinking: true, lifetime: 3600).jsonBody)
                #expect(created.status == .created)
                let token = try created.decoded(ReaderToken.self)
                #expect(token.merchantId == shop.merchant.id && token.userId == shop.staff.id && token.allowsRelinking)
                #expect(token.expiresAt == fixture.clock.now.addingTimeInterval(3600))
                let caller = try await fixture.tokens.verify(token.token)
                #expect(caller.userId == shop.staff.id && !caller.isAdmin && caller.allowsRelinking)

                let tooLong = try await client.execute(
                    uri: "/v1/reader-tokens", method: .post, headers: .bearer(shop.secret.value),
                    body: ReaderTokenRequest(userId: shop.admin.id, lifetime: 86_401).jsonBody)
                #expect(tooLong.problem?.code == "invalidRequest")
                let foreignUser = try await client.execute(
                    uri: "/v1/reader-tokens", method: .post, headers: .bearer(shop.secret.value),
                    body: ReaderTokenRequest(userId: other.admin.id).jsonBody)
                #expect(foreignUser.status == .notFound)
                let missingUser = try await client.execute(
                    uri: "/v1/reader-tokens", method: .post, headers: .bearer(shop.secret.value),
                    body: ByteBuffer(string: "{}"))
                #expect(missingUser.problem?.code == "invalidRequest")
                let withToken = try await client.execute(
                    uri: "/v1/reader-tokens", method: .post, headers: .bearer(token.token),
                    body: ReaderTokenRequest(userId: shop.admin.id).jsonBody)
                #expect(withToken.status == .unauthorized)
            }
        }
    }

    @Test(
        "POST /v1/account-links: staff 403 adminRequired, admin 200, again 409, relink 403 or 200",
        arguments: TestDatabases.kinds)
    func accountLinks(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.seedMerchant()
            let admin = try await fixture.readerToken(shop)
            let staff = try await fixture.readerToken(shop, admin: false, allowsRelinking: true)
            let relinker = try await fixture.readerToken(shop, allowsRelinking: true)
            let app = try fixture.application()
            try await app.test(.router) { client in
                func link(_ token: String, relink: Bool = false) async throws -> TestResponse {
                    try await client.execute(
                        uri: "/v1/account-links", method: .post, headers: .bearer(token),
                        body: AccountLinkRequest(deviceId: "phone-1", relink: relink).jsonBody)
                }
                let byStaff = try await link(staff)
                #expect(byStaff.status == .forbidden)
                #expect(byStaff.problem?.code == "adminRequired")

                let byAdmin = try await link(admin)
                #expect(byAdmin.status == .ok)
                let status = try byAdmin.decoded(AccountLinkStatus.self)
                #expect(status.isLinked && status.linkedBy == shop.admin.id && status.merchantId == shop.merchant.id)

                let again = try await link(admin)
                #expect(again.status == .conflict)
                #expect(again.problem?.code == "accountAlreadyLinked")
                let relinkRefused = try await link(admin, relink: true)
                #expect(relinkRefused.status == .forbidden)
                #expect(relinkRefused.problem?.code == "relinkNotAllowed")
                let relinked = try await link(relinker, relink: true)
                #expect(relinked.status == .ok)

                let withKey = try await client.execute(
                    uri: "/v1/account-links", method: .post, headers: .bearer(shop.secret.value),
                    body: AccountLinkRequest(deviceId: "phone-1").jsonBody)
                #expect(withKey.status == .unauthorized)
                let badBody = try await client.execute(
                    uri: "/v1/account-links", method: .post, headers: .bearer(admin), body: ByteBuffer(string: "[1]"))
                #expect(badBody.status == .badRequest)
            }
        }
    }
}
