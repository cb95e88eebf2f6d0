import TestMode
import ContactlessTesting
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Device merchant limit")
struct DeviceLimitTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the rule: three merchants in 24 h, the fourth clears when the oldest use leaves the window")
    func rule() {
        let limit = DeviceMerchantLimit.standard
        let uses = ["a": start, "b": start + 3600, "c": start + 7200]
        #expect(limit.decide(merchantId: "c", lastUses: uses, now: start + 10_800) == .allowed)
        #expect(
            limit.decide(merchantId: "d", lastUses: uses, now: start + 10_800) == .blocked(clearsAt: start + 86_400))
        #expect(
            limit.decide(merchantId: "d", lastUses: uses, now: start + 86_399.999) == .blocked(clearsAt: start + 86_400)
        )
        #expect(limit.decide(merchantId: "d", lastUses: uses, now: start + 86_400) == .allowed)
        // An old use does not count at all.
        #expect(
            limit.decide(merchantId: "d", lastUses: ["a": start - 86_400, "b": start, "c": start], now: start)
                == .allowed)
    }

    @Test(
        "in the database: 3 ok, the 4th blocked with the exact clearsAt, ok again from then; reuse stays ok",
        arguments: TestDatabases.kinds)
    func repository(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let devices = fixture.devices
            let t0 = fixture.clock.now
            for (index, merchant) in ["mer_a", "mer_b", "mer_c"].enumerated() {
                try await devices.recordMerchantUse(
                    deviceId: "dev-1", merchantId: merchant, actor: "test", now: t0 + Double(index) * 3600)
            }
            let blocked = await #expect(throws: GatewayAPIError.merchantBlocked) {
                try await devices.recordMerchantUse(
                    deviceId: "dev-1", merchantId: "mer_d", actor: "test", now: t0 + 10_800)
            }
            #expect(blocked?.clearsAt == t0 + 86_400)
            // Re-using one of the three refreshes its use and stays allowed.
            try await devices.recordMerchantUse(deviceId: "dev-1", merchantId: "mer_a", actor: "test", now: t0 + 10_800)
            // Now b (t0 + 1 h) is the oldest: the fourth clears at t0 + 25 h.
            let later = await #expect(throws: GatewayAPIError.merchantBlocked) {
                try await devices.recordMerchantUse(
                    deviceId: "dev-1", merchantId: "mer_d", actor: "test", now: t0 + 86_400)
            }
            #expect(later?.clearsAt == t0 + 90_000)
            try await devices.recordMerchantUse(deviceId: "dev-1", merchantId: "mer_d", actor: "test", now: t0 + 90_000)
            // Another device is not affected by this one's uses.
            try await devices.recordMerchantUse(deviceId: "dev-2", merchantId: "mer_d", actor: "test", now: t0 + 10_800)
        }
    }

    @Test(
        "over HTTP: the fourth merchant's prepare is 403 merchantBlocked with clearsAt, and passes after it",
        arguments: TestDatabases.kinds)
    func overHTTP(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            var merchants: [IdentityFixture.Seeded] = []
            for name in ["A", "B", "C", "D"] { merchants.append(try await fixture.linkedMerchant(name)) }
            var issued: [String] = []
            for merchant in merchants { issued.append(try await fixture.readerToken(merchant, lifetime: 86_400)) }
            let tokens = issued
            let fourth = merchants[3]
            let t0 = fixture.clock.now
            let app = try fixture.application()
            try await app.test(.router) { client in
                for token in tokens.prefix(3) {
                    let response = try await client.execute(
                        uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                    #expect(response.status == .ok)
                    fixture.clock.advance(by: 3600)
                }
                let blocked = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(tokens[3]))
                #expect(blocked.status == .forbidden)
                #expect(blocked.problem?.code == "merchantBlocked")
                #expect(blocked.problem?.clearsAt == t0 + 86_400)
                #expect(blocked.headers[.contentType] == Problem.mediaType)

                let reuse = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(tokens[1]))
                #expect(reuse.status == .ok)

                fixture.clock.set(t0 + 86_400)
                let fresh = try await fixture.readerToken(fourth)
                let cleared = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(fresh))
                #expect(cleared.status == .ok)
            }
        }
    }
}
