import TestMode
import _SQLStorage
import CardEmulator
import ContactlessTesting
import Crypto
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReaderKernel
import Testing

@Suite("Device prepare")
struct PrepareTests {
    @Test(
        "a first prepare streams each stage, then the provisioning; a second sends only the final line",
        arguments: TestDatabases.kinds)
    func stagedThenFinal(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.linkedMerchant("Shop")
            let token = try await fixture.readerToken(shop, admin: false)
            let app = try fixture.application()
            try await app.test(.router) { client in
                let first = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                #expect(first.status == .ok)
                #expect(first.headers[.contentType] == PrepareProgress.mediaType)
                let lines = try PrepareProgress.lines(in: Data(first.body.readableBytesView))
                #expect(lines.map(\.progress) == [0, 25, 50, 75, 100])
                #expect(
                    lines.map(\.stage) == [
                        .started, .deviceRegistered, .pinKeyStored, .configurationBuilt, .sessionIssued,
                    ])
                #expect(lines.dropLast().allSatisfy { !$0.isFinal })
                let provisioning = try #require(lines.last?.provisioning)

                let second = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                let again = try PrepareProgress.lines(in: Data(second.body.readableBytesView))
                #expect(again.count == 1)
                #expect(again.first?.progress == 100)
                let reprovisioned = try #require(again.first?.provisioning)
                // The device keeps its terminal id and PIN key; the session is new.
                #expect(reprovisioned.terminalId == provisioning.terminalId)
                #expect(reprovisioned.pinKey == provisioning.pinKey)
            }
        }
    }

    @Test(
        "a second merchant preparing the same device gets its own terminal id and PIN key, and counts toward its limit",
        arguments: TestDatabases.kinds)
    func secondMerchantOnOnePhone(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shops = [
                try await fixture.linkedMerchant("A"), try await fixture.linkedMerchant("B"),
                try await fixture.linkedMerchant("C"), try await fixture.linkedMerchant("D"),
            ]
            let app = try fixture.application()
            try await app.test(.router) { client in
                func prepare(_ shop: IdentityFixture.Seeded) async throws -> TestResponse {
                    try await client.execute(
                        uri: "/v1/devices/phone-1/prepare", method: .post,
                        headers: .bearer(try await fixture.readerToken(shop)))
                }
                func provisioning(_ shop: IdentityFixture.Seeded) async throws -> ReaderProvisioning {
                    let response = try await prepare(shop)
                    return try #require(
                        try PrepareProgress.lines(in: Data(response.body.readableBytesView)).last?.provisioning)
                }
                let a = try await provisioning(shops[0])
                let b = try await provisioning(shops[1])
                #expect(b.merchantId == shops[1].merchant.id)
                #expect(b.terminalId != a.terminalId)
                #expect(b.pinKey.keyId != a.pinKey.keyId)
                #expect(b.pinKey.key != a.pinKey.key)
                // The first merchant's registration is untouched, and each merchant's PIN key deciphers only its own.
                let again = try await provisioning(shops[0])
                #expect(again.terminalId == a.terminalId)
                #expect(again.pinKey == a.pinKey)
                let keyA = try await fixture.devices.pinKeyBytes(
                    merchantId: shops[0].merchant.id, deviceId: "phone-1", keys: fixture.keys)
                let keyB = try await fixture.devices.pinKeyBytes(
                    merchantId: shops[1].merchant.id, deviceId: "phone-1", keys: fixture.keys)
                #expect(keyA?.key == [UInt8](a.pinKey.key))
                #expect(keyB?.key == [UInt8](b.pinKey.key))
                // Third merchant on the phone: allowed; a fourth within 24 hours: blocked.
                _ = try await provisioning(shops[2])
                let fourth = try await prepare(shops[3])
                #expect(fourth.status == .forbidden)
                #expect(fourth.problem?.code == "merchantBlocked")
            }
        }
    }

    @Test(
        "concurrent first prepares of one device agree on its terminal id and PIN key", arguments: TestDatabases.kinds)
    func concurrentFirstPrepares(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.linkedMerchant("Shop")
            let token = try await fixture.readerToken(shop)
            let app = try fixture.application()
            let provisionings = try await app.test(.router) { client in
                try await withThrowingTaskGroup(of: ReaderProvisioning?.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let response = try await client.execute(
                                uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                            return try PrepareProgress.lines(in: Data(response.body.readableBytesView)).last?
                                .provisioning
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(provisionings.count == 4)
            #expect(Set(provisionings.map { $0?.terminalId }).count == 1)
            #expect(Set(provisionings.map { $0?.pinKey }).count == 1)
            #expect(!provisionings.contains(nil))
        }
    }

    @Test(
        "over a live port the first prepare arrives as NDJSON lines, the last with the provisioning",
        arguments: TestDatabases.kinds)
    func liveStream(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.linkedMerchant("Shop")
            let token = try await fixture.readerToken(shop)
            let app = try fixture.application()
            try await app.test(.live) { client in
                let response = try await client.execute(
                    uri: "/v1/devices/phone-live/prepare", method: .post, headers: .bearer(token))
                #expect(response.status == .ok)
                let lines = try PrepareProgress.lines(in: Data(response.body.readableBytesView))
                #expect(lines.map(\.progress) == [0, 25, 50, 75, 100])
                #expect(lines.last?.provisioning?.deviceId == "phone-live")
            }
        }
    }

    @Test(
        "the provisioning: terminal and card acceptor ids, HPKE key, configuration the kernel accepts, PIN key, session",
        arguments: TestDatabases.kinds)
    func provisioningContents(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.linkedMerchant("Shop")
            let token = try await fixture.readerToken(shop)
            let app = try fixture.application()
            let provisioning = try await app.test(.router) { client in
                let response = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                return try #require(
                    try PrepareProgress.lines(in: Data(response.body.readableBytesView)).last?.provisioning)
            }
            #expect(provisioning.deviceId == "phone-1")
            #expect(provisioning.merchantId == shop.merchant.id)
            #expect(provisioning.terminalId.count == 8)
            #expect(shop.merchant.cardAcceptorId.count == 15)

            // The configuration decodes as the kernel's own, with the test CA's keys.
            let configuration = try JSONDecoder().decode(
                ReaderConfiguration.self, from: JSONEncoder().encode(provisioning.readerConfiguration))
            #expect(configuration.terminalIdentifier == provisioning.terminalId)
            #expect(configuration.merchantIdentifier == shop.merchant.cardAcceptorId)
            #expect(configuration.merchantCategoryCode == "5411")
            #expect(configuration.applications == [.visa, .mastercard])
            #expect(configuration.kernel3 == .phoneReader)
            #expect(configuration.kernel2 == .phoneReader)
            let eur = try #require(configuration.limits(kernelID: 3, currency: .eur))
            #expect(eur.floorLimit == 0 && eur.cvmRequiredLimit == 5_000 && eur.contactlessTransactionLimit == 50_000)
            #expect(configuration.limits(kernelID: 2, currency: .eur) != nil)
            let testCA = try CardProfile.testCAPublicKeys
            #expect(configuration.caPublicKeys.keys == testCA.keys)

            // The PIN key is AES-128 and stored only encrypted.
            #expect(provisioning.pinKey.key.count == 16)
            let rows = try await fixture.database.query(
                "SELECT pin_key, pin_key_id FROM merchant_devices WHERE id = 'phone-1'")
            let stored = try #require(try rows.first?.optionalBlob("pin_key"))
            #expect(try rows.first?.optionalText("pin_key_id") == provisioning.pinKey.keyId)
            #expect(!Data(stored).contains(provisioning.pinKey.key))
            let read = try await fixture.devices.pinKeyBytes(
                merchantId: shop.merchant.id, deviceId: "phone-1", keys: fixture.keys)
            #expect(read?.key == Array(provisioning.pinKey.key))
            // The payments code opens it as AES-GCM under the data key bound to the merchant and device ids.
            let opened = try AES.GCM.open(
                AES.GCM.SealedBox(combined: stored), using: fixture.keys.dataKey,
                authenticating: Data((shop.merchant.id + "\u{0}phone-1").utf8))
            #expect(opened == provisioning.pinKey.key)

            // The session is this device's; card data sealed to the provisioned key opens at the gateway.
            let caller = try await fixture.tokens.verify(provisioning.session.token)
            #expect(caller == Caller(credential: .readerSession, merchantId: shop.merchant.id, deviceId: "phone-1"))
            #expect(provisioning.session.expiresAt == fixture.clock.now.addingTimeInterval(12 * 3600))
            #expect(provisioning.cardDataKey.keyId == fixture.keys.currentCardDataKeyId)
            let payload = try CardDataPayload.fixture(
                merchantId: shop.merchant.id, deviceId: "phone-1", createdAt: fixture.clock.now)
            let sealed = try provisioning.cardDataKey.sealer().seal(payload)
            let opener = fixture.keys.opener(
                replayStore: InMemorySealedCardDataReplayStore(), clock: fixture.clock.function)
            #expect(
                try await opener.open(sealed, merchantId: shop.merchant.id, deviceId: "phone-1").readId
                    == payload.readId)
        }
    }

    @Test(
        "prepare refuses an unlinked merchant, a bad device id and a non-reader-token credential",
        arguments: TestDatabases.kinds)
    func refusals(_ kind: TestDatabases.Kind) async throws {
        try await IdentityFixture.with(kind) { fixture in
            let shop = try await fixture.seedMerchant()
            let token = try await fixture.readerToken(shop)
            let app = try fixture.application()
            try await app.test(.router) { client in
                let unlinked = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                #expect(unlinked.status == .forbidden)
                #expect(unlinked.problem?.code == "accountNotLinked")
                _ = try await fixture.merchants.link(by: fixture.caller(shop), deviceId: "phone-1", relink: false)
                let badId = try await client.execute(
                    uri: "/v1/devices/\(String(repeating: "x", count: 65))/prepare", method: .post,
                    headers: .bearer(token))
                #expect(badId.problem?.code == "invalidRequest")
                let withKey = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(shop.secret.value))
                #expect(withKey.status == .unauthorized)
            }
            // Nothing was registered by the refused calls.
            #expect(try await fixture.devices.device(merchantId: shop.merchant.id, id: "phone-1") == nil)
        }
    }
}
