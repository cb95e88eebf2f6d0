import _SQLStorage
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Identity secrets stay out of responses, logs and the audit log")
struct IdentityLeakTests {
    @Test(
        "API key secret, PIN key and private keys: only where they are delivered, never in logs or audit rows",
        arguments: TestDatabases.kinds)
    func noSecretsLeak(_ kind: TestDatabases.Kind) async throws {
        let directory = try GatewayKeysTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try GatewayKeys.loadOrCreate(directory: directory)
        let keySecrets = try KeyFileSecrets(directory: directory).all
        try await IdentityFixture.with(kind, keys: keys) { fixture in
            let shop = try await fixture.seedMerchant()
            let app = try fixture.application()

            let (bodies, pinKey) = try await app.test(.router) { client in
                var bodies: [String] = []
                let issued = try await client.execute(
                    uri: "/v1/reader-tokens", method: .post, headers: .bearer(shop.secret.value),
                    body: ReaderTokenRequest(userId: shop.admin.id).jsonBody)
                let token = try issued.decoded(ReaderToken.self).token
                bodies.append(issued.text)
                for (uri, method, body) in [
                    ("/v1/account-links", HTTPRequest.Method.post, AccountLinkRequest(deviceId: "phone-1").jsonBody),
                    ("/v1/account-links", .post, AccountLinkRequest(deviceId: "phone-1").jsonBody),
                    ("/v1/account-links?deviceId=phone-1", .get, ByteBuffer()),
                    ("/v1/devices/bad%20id/prepare", .post, ByteBuffer()),
                ] {
                    bodies.append(
                        try await client.execute(uri: uri, method: method, headers: .bearer(token), body: body).text)
                }
                let prepared = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                let pinKey = try #require(
                    try PrepareProgress.lines(in: Data(prepared.body.readableBytesView)).last?.provisioning?.pinKey.key)
                // The PIN key's one delivery is the prepare response; everything else must not hold it.
                let again = try await client.execute(
                    uri: "/v1/devices/phone-1/prepare", method: .post, headers: .bearer(token))
                for text in [prepared.text, again.text] {
                    for secret in keySecrets + [shop.secret.value] { #expect(!text.contains(secret)) }
                }
                return (bodies, pinKey)
            }
            let audit = try await AuditLog.entries(on: fixture.database).map { "\($0)" }.joined(separator: "\n")
            let logs = fixture.logs.text
            let pinForms = [
                pinKey.base64EncodedString(), Array(pinKey).hexString, Array(pinKey).hexString.lowercased(),
            ]
            for secret in keySecrets + pinForms + [shop.secret.value] {
                for text in bodies + [audit, logs] { #expect(!text.contains(secret)) }
            }
            // The logs and the audit log name what happened, by id.
            #expect(logs.contains("reader token issued") && logs.contains("device prepared"))
            #expect(audit.contains("termsAccepted") && audit.contains("registered") && audit.contains("pinKeyStored"))
            // The API key is stored only hashed.
            let stored = try await fixture.database.query("SELECT secret_hash FROM api_keys")
            for row in stored { #expect(!Data(try row.blob("secret_hash")).contains(Data(shop.secret.value.utf8))) }
            #expect(!"\(shop.secret)".contains(shop.secret.value))
        }
    }
}
