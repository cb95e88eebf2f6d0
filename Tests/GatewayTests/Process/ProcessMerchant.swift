import EMV
import Foundation
import GatewayAPI
import Issuer
import Testing
import TestMode

/// A merchant onboarded on a gateway process the way an operator and a reader SDK do it: `tap merchant create`,
/// `tap merchant user add --role admin` and `tap merchant key create` on the gateway's database, then over HTTP a
/// reader token for the admin, the account link and the device's prepare (whose last line provisions the reader).
struct ProcessMerchant: Sendable {
    let merchantId: String
    /// The merchant's API key (the merchant's own server).
    let apiKey: String
    let deviceId: String
    let provisioning: ReaderProvisioning

    /// The reader session's bearer token.
    var session: String { provisioning.session.token }

    /// Onboards a merchant on the gateway that `client` talks to; `store` are the database options (`--data-dir …`
    /// and maybe `--database …`) of the `tap merchant` commands.
    static func onboard(store: [String], client: GatewayClient, logs: ProcessLogs) async throws -> ProcessMerchant {
        let merchant = try await cli(
            ["merchant", "create", "--name", "Process Shop", "--country", "DE", "--currency", "EUR"] + store,
            name: "merchant-create", logs: logs, Identified.self)
        let user = ["--merchant", merchant.id, "--email", "owner@process.example", "--role", "admin"]
        let admin = try await cli(
            ["merchant", "user", "add"] + user + store, name: "merchant-user-add", logs: logs, Identified.self)
        let key = try await cli(
            ["merchant", "key", "create", "--merchant", merchant.id] + store, name: "merchant-key-create", logs: logs,
            CreatedKey.self)
        let tokenReply = try await client.post(
            "/v1/reader-tokens", bearer: key.secret, json: ReaderTokenRequest(userId: admin.id))
        try #require(tokenReply.status == 201 || tokenReply.status == 200, "reader token: \(tokenReply.text)")
        let token = try tokenReply.decoded(ReaderToken.self).token
        let deviceId = "device-\(UUID().uuidString.prefix(8))"
        let link = try await client.post(
            "/v1/account-links", bearer: token, json: AccountLinkRequest(deviceId: deviceId))
        try #require((200..<300).contains(link.status), "account link: \(link.text)")
        let prepared = try await client.post("/v1/devices/\(deviceId)/prepare", bearer: token, body: Data())
        try #require(prepared.status == 200, "prepare: \(prepared.text)")
        let provisioning = try #require(
            try PrepareProgress.lines(in: prepared.body).last?.provisioning, "prepare ended without provisioning")
        return ProcessMerchant(
            merchantId: merchant.id, apiKey: key.secret, deviceId: deviceId, provisioning: provisioning)
    }

    /// A tapper for `card` (its own applet, so its ATCs go up with each tap).
    static func tapper(_ card: TestCard) throws -> TestCardTapper {
        try TestCardTapper(pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard)
    }

    /// The body of `POST /v1/payments`: a fresh tap of `tapper` for `minorUnits` EUR cents, sealed to the PSP from
    /// this merchant's device.
    func paymentRequest(_ tapper: TestCardTapper, minorUnits: Int) async throws -> Data {
        let sealed = try await tapper.sealedTap(
            amount: Amount(minorUnits: minorUnits, currency: .eur), merchantId: merchantId, deviceId: deviceId,
            recipient: try provisioning.cardDataKey.sealer())
        return try JSONEncoder.gatewayAPI.encode(
            CreatePaymentRequest(cardData: sealed, amount: minorUnits, currency: "EUR"))
    }

    /// Runs a `tap merchant … --json` command and decodes what it printed.
    private static func cli<T: Decodable>(
        _ arguments: [String], name: String, logs: ProcessLogs, _ type: T.Type
    ) async throws -> T {
        try JSONDecoder().decode(T.self, from: try await TapProcess.run(arguments + ["--json"], name: name, logs: logs))
    }

    private struct Identified: Decodable { let id: String }
    private struct CreatedKey: Decodable { let secret: String }
}
