import _SQLStorage
import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Issuer
import NIOCore
import ReaderKernel
import Testing
import TestMode

/// A whole gateway on a live loopback port — SQLite or PostgreSQL, the in-process issuer holding the test cards —
/// with an onboarded merchant (admin, API key, linked account) and a prepared device, plus the helpers a reader SDK
/// would use: tap a test card, seal it to the PSP, pay.
struct LiveGateway {
    let client: any TestClientProtocol
    let application: GatewayApplication
    let clock: TestClock
    let logs: LogRecorder
    let merchantId: String
    let apiKey: String
    let deviceId: String
    /// The admin's reader token (linking and prepare; not payments).
    let readerToken: String
    let provisioning: ReaderProvisioning
    /// Where the key file (and, on SQLite, the database) is.
    let dataDirectory: URL

    /// Runs `body` against a fresh gateway on `kind`.
    static func with(
        _ kind: TestDatabases.Kind, issuer: IssuerConnection = .testIssuer,
        issuerTimeout: Duration = .milliseconds(500), applePayRootsPEM: [String] = [],
        _ body: @Sendable (LiveGateway) async throws -> Void
    ) async throws {
        switch kind {
        case .sqlite:
            try await run(
                databaseURL: nil, issuer: issuer, issuerTimeout: issuerTimeout, applePayRootsPEM: applePayRootsPEM, body
            )
        case .postgres:
            try await TestDatabases.withPostgresDatabase { url in
                try await run(
                    databaseURL: url.description, issuer: issuer, issuerTimeout: issuerTimeout,
                    applePayRootsPEM: applePayRootsPEM, body)
            }
        }
    }

    private static func run(
        databaseURL: String?, issuer: IssuerConnection, issuerTimeout: Duration,
        applePayRootsPEM: [String], _ body: @Sendable (LiveGateway) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock(Date())
        let logs = LogRecorder()
        var configuration = GatewayConfiguration(
            port: 0, dataDirectory: directory, databaseURL: databaseURL, issuer: issuer, issuerTimeout: issuerTimeout,
            reversalInterval: .milliseconds(100), caPublicKeys: try CardProfile.testCAPublicKeys, clock: clock.function)
        configuration.applePayTrustedRootsPEM = applePayRootsPEM
        configuration.passwordHashCost = 4  // bcrypt's minimum: the console's tests hash many passwords
        configuration.allowsLocalWebhooks = true  // the webhook tests' receivers listen on 127.0.0.1
        let application = try await GatewayApplication.build(configuration: configuration, logger: logs.logger)
        try await application.application.test(.live) { liveClient in
            let client: any TestClientProtocol =
                if let recorder = APISampleRecorder.shared {
                    RecordingTestClient(base: liveClient, recorder: recorder)
                } else {
                    liveClient
                }
            let merchants = MerchantRepository(database: application.database)
            let merchant = try await merchants.create(
                name: "Live Shop", country: .deu, currency: .eur, categoryCode: "5411", actor: "test", now: clock.now)
            let admin = try await MerchantUserRepository(database: application.database).add(
                merchantId: merchant.id, email: "owner@live.example", role: .admin, actor: "test", now: clock.now)
            let (_, secret) = try await APIKeyRepository(database: application.database).create(
                merchantId: merchant.id, actor: "test", now: clock.now)
            let token = try await client.json(
                ReaderToken.self, "/v1/reader-tokens", bearer: secret.value,
                body: ReaderTokenRequest(userId: admin.id))
            let deviceId = "device-\(UUID().uuidString.prefix(8))"
            _ = try await client.json(
                AccountLinkStatus.self, "/v1/account-links", bearer: token.token,
                body: AccountLinkRequest(deviceId: deviceId))
            let prepared = try await client.execute(
                uri: "/v1/devices/\(deviceId)/prepare", method: .post, headers: .bearer(token.token), body: nil)
            let lines = try PrepareProgress.lines(in: Data(prepared.body.readableBytesView))
            let provisioning = try #require(lines.last?.provisioning, "prepare ended without provisioning")
            try await body(
                LiveGateway(
                    client: client, application: application, clock: clock, logs: logs, merchantId: merchant.id,
                    apiKey: secret.value, deviceId: deviceId, readerToken: token.token, provisioning: provisioning,
                    dataDirectory: directory))
        }
    }

    /// The reader session's bearer token (payments from the prepared device).
    var session: String { provisioning.session.token }

    /// A tapper for `card`, its keys valid from now.
    func tapper(_ card: TestCard) throws -> TestCardTapper {
        try TestCardTapper(
            pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard, personalisedOn: clock.now,
            clock: clock.function)
    }

    /// Taps `tapper` for `minorUnits` EUR cents and seals the read to the PSP from this device.
    func sealedTap(
        _ tapper: TestCardTapper, minorUnits: Int = 1_000, type: TransactionType = .purchase,
        deviceId: String? = nil, createdAt: Date? = nil
    ) async throws -> SealedCardData {
        try await tapper.sealedTap(
            amount: Amount(minorUnits: minorUnits, currency: .eur), type: type, merchantId: merchantId,
            deviceId: deviceId ?? self.deviceId, recipient: try provisioning.cardDataKey.sealer(),
            createdAt: createdAt ?? clock.now)
    }

    /// `POST path` with a JSON body, as the reader session (or `bearer`), with an idempotency key.
    func post(
        _ path: String, _ body: some Encodable, bearer: String? = nil, idempotencyKey: String? = UUID().uuidString
    ) async throws -> TestResponse {
        var headers: HTTPFields = .bearer(bearer ?? session)
        if let idempotencyKey { headers[HTTPField.Name("Idempotency-Key")!] = idempotencyKey }
        return try await client.execute(
            uri: path, method: .post, headers: headers,
            body: ByteBuffer(bytes: Array(try JSONEncoder.gatewayAPI.encode(body))))
    }

    /// `GET path` as the merchant's server (API key), or as `bearer`.
    func get(_ path: String, bearer: String? = nil) async throws -> TestResponse {
        try await client.execute(uri: path, method: .get, headers: .bearer(bearer ?? apiKey), body: nil)
    }

    /// Prepares another device of the merchant, as the admin's reader app would.
    func prepare(deviceId: String) async throws -> ReaderProvisioning {
        let prepared = try await client.execute(
            uri: "/v1/devices/\(deviceId)/prepare", method: .post, headers: .bearer(readerToken), body: nil)
        return try #require(try PrepareProgress.lines(in: Data(prepared.body.readableBytesView)).last?.provisioning)
    }

    /// Pays `minorUnits` EUR cents with a fresh tap of `tapper`.
    func pay(
        _ tapper: TestCardTapper, minorUnits: Int = 1_000, captureMethod: CaptureMethod? = nil
    ) async throws -> TestResponse {
        try await post(
            "/v1/payments", try await paymentRequest(tapper, minorUnits: minorUnits, captureMethod: captureMethod))
    }

    /// A payment of `minorUnits` EUR cents from a fresh tap of `tapper`, not yet sent.
    func paymentRequest(
        _ tapper: TestCardTapper, minorUnits: Int = 1_000, captureMethod: CaptureMethod? = nil
    ) async throws -> CreatePaymentRequest {
        CreatePaymentRequest(
            cardData: try await sealedTap(tapper, minorUnits: minorUnits), amount: minorUnits, currency: "EUR",
            captureMethod: captureMethod)
    }

    /// The issuer's available balance of `card`.
    func balance(_ card: TestCard) async throws -> Int? {
        let keys = try #require(application.embeddedIssuerKeys)
        return try await SQLIssuerRepository(database: application.database)
            .account(keys.keyedHash(of: try PAN(card.pan)))?.availableBalance
    }
}

extension TestClientProtocol {
    /// `POST path` with `body` as JSON, decoding a 2xx answer as `T`.
    func json<T: Decodable>(
        _ type: T.Type, _ path: String, bearer: String, body: some Encodable
    ) async throws -> T {
        let response = try await execute(
            uri: path, method: .post, headers: .bearer(bearer),
            body: ByteBuffer(bytes: Array(try JSONEncoder.gatewayAPI.encode(body))))
        #expect((200..<300).contains(response.status.code), "\(path): \(response.text)")
        return try response.decoded(T.self)
    }
}

/// A test client that records every exchange it makes with ``APISampleRecorder`` (`CONTACTLESS_API_SAMPLES`).
struct RecordingTestClient: TestClientProtocol {
    let base: any TestClientProtocol
    let recorder: APISampleRecorder

    var port: Int? { base.port }

    func executeRequest(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?
    ) async throws -> TestResponse {
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        recorder.record(
            test: APISampleRecorder.currentTest, source: "LiveGateway", method: method, uri: uri,
            requestHeaders: headers, requestBody: body, status: response.status, responseHeaders: response.headers,
            responseBody: response.body)
        return response
    }
}
