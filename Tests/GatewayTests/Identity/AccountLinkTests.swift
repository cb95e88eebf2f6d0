import TestMode
import ContactlessTesting
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Account linking")
struct AccountLinkTests {
    @Test("only an admin may link; staff gets adminRequired and nothing changes", arguments: TestDatabases.kinds)
    func adminOnly(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.seedMerchant()
            await #expect(throws: GatewayAPIError.adminRequired) {
                try await fixture.merchants.link(
                    by: fixture.caller(shop, admin: false), deviceId: "dev-1", relink: false)
            }
            #expect(try await fixture.merchants.merchant(id: shop.merchant.id)?.isAccountLinked == false)

            let linked = try await fixture.merchants.link(
                by: fixture.caller(shop), deviceId: "dev-1", relink: false, now: fixture.clock.now)
            #expect(linked.isAccountLinked)
            #expect(linked.termsAcceptedBy == shop.admin.id)
            #expect(linked.termsAcceptedAt == fixture.clock.now)
            let audit = try await AuditLog.entries(on: fixture.database, entity: "merchant", entityId: shop.merchant.id)
            #expect(audit.map(\.action) == ["created", "termsAccepted"])
            #expect(audit.last?.actor == "user:\(shop.admin.id)")
        }
    }

    @Test("linking again needs relink, and relinking needs a token that allows it", arguments: TestDatabases.kinds)
    func relinking(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.seedMerchant()
            _ = try await fixture.merchants.link(by: fixture.caller(shop), deviceId: "dev-1", relink: false)

            await #expect(throws: GatewayAPIError.accountAlreadyLinked) {
                try await fixture.merchants.link(by: fixture.caller(shop), deviceId: "dev-1", relink: false)
            }
            await #expect(throws: GatewayAPIError.relinkNotAllowed) {
                try await fixture.merchants.link(by: fixture.caller(shop), deviceId: "dev-1", relink: true)
            }
            await #expect(throws: GatewayAPIError.adminRequired) {
                try await fixture.merchants.link(
                    by: fixture.caller(shop, admin: false, allowsRelinking: true), deviceId: "dev-1", relink: true)
            }
            fixture.clock.advance(by: 60)
            let relinked = try await fixture.merchants.link(
                by: fixture.caller(shop, allowsRelinking: true), deviceId: "dev-2", relink: true, now: fixture.clock.now
            )
            #expect(relinked.termsAcceptedAt == fixture.clock.now)
        }
    }

    @Test(
        "the link is the merchant's: it holds on every device and not for another merchant",
        arguments: TestDatabases.kinds)
    func holdsOnEveryDevice(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.linkedMerchant("Shop")
            let other = try await fixture.seedMerchant("Other")
            let app = try fixture.application()
            let shopToken = try await fixture.readerToken(shop, admin: false)
            let otherToken = try await fixture.readerToken(other)
            try await app.test(.router) { client in
                for device in ["setup-device", "another-phone"] {
                    let response = try await client.execute(
                        uri: "/v1/account-links?deviceId=\(device)", method: .get, headers: .bearer(shopToken))
                    #expect(response.status == .ok)
                    #expect(try response.decoded(AccountLinkStatus.self).isLinked)
                }
                let response = try await client.execute(
                    uri: "/v1/account-links?deviceId=another-phone", method: .get, headers: .bearer(otherToken))
                #expect(
                    try response.decoded(AccountLinkStatus.self)
                        == AccountLinkStatus(merchantId: other.merchant.id, isLinked: false))
            }
        }
    }
}
