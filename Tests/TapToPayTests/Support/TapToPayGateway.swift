import AsyncHTTPClient
import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import Hummingbird
import Issuer
import Logging
import NIOCore
import SmartCard
import TapToPay
import Testing

/// The real gateway on a live loopback port (SQLite, the in-process issuer with the test cards, a hand-moved
/// clock), and what a merchant's server does around a `PaymentCardReader`: onboard merchants and users, issue
/// reader tokens, and authorize the reads' sealed card data with its API key.
struct TapToPayGateway: Sendable {
    let application: GatewayApplication
    let clock: TestClock
    /// The reader SDK's transport to the live port.
    let transport: HTTPGatewayTransport

    /// Starts a gateway, runs `body`, stops it and removes its data.
    static func with(_ body: @Sendable (TapToPayGateway) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taptopay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock(Date())
        var logger = Logger(label: "taptopay-tests")
        logger.logLevel = .error
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = try await GatewayApplication.build(
            configuration: GatewayConfiguration(
                port: 0, dataDirectory: directory, issuerTimeout: .milliseconds(500),
                reversalInterval: .milliseconds(100), caPublicKeys: try CardProfile.testCAPublicKeys,
                clock: clock.function),
            logger: logger
        ) { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }
                try await application.application.runService(gracefulShutdownSignals: [])
            }
            defer { group.cancelAll() }
            let listening = await ports.first(where: { _ in true })
            let port = try #require(listening, "the gateway did not start")
            // A client of its own, closed before the server stops: a shared pool could keep a connection to a
            // stopped gateway whose port the next test's gateway gets.
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            let gateway = TapToPayGateway(
                application: application, clock: clock,
                transport: HTTPGatewayTransport(baseURL: "http://127.0.0.1:\(port)", client: client))
            do {
                try await body(gateway)
                try await client.shutdown()
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    /// A merchant as its server knows it: ids, an API key, an admin and a staff user.
    struct Merchant: Sendable {
        var id: String
        var apiKey: String
        var adminId: String
        var staffId: String
    }

    /// Onboards a merchant in the database, as `tap merchant` does (not linked: that is the reader's job).
    func merchant(_ name: String = "Corner Shop") async throws -> Merchant {
        let database = application.database
        let merchant = try await MerchantRepository(database: database).create(
            name: name, country: .deu, currency: .eur, categoryCode: "5411", actor: "test", now: clock.now)
        let users = MerchantUserRepository(database: database)
        let admin = try await users.add(
            merchantId: merchant.id, email: "owner@\(merchant.id).example", role: .admin, actor: "test", now: clock.now)
        let staff = try await users.add(
            merchantId: merchant.id, email: "clerk@\(merchant.id).example", role: .staff, actor: "test", now: clock.now)
        let (_, secret) = try await APIKeyRepository(database: database).create(
            merchantId: merchant.id, actor: "test", now: clock.now)
        return Merchant(id: merchant.id, apiKey: secret.value, adminId: admin.id, staffId: staff.id)
    }

    /// A reader token for `user` of `merchant`, from the merchant's server (`POST /v1/reader-tokens`).
    func token(
        _ merchant: Merchant, user: String? = nil, allowsRelinking: Bool = false, lifetime: Int? = nil
    ) async throws -> PaymentCardReader.Token {
        let request = ReaderTokenRequest(
            userId: user ?? merchant.adminId, allowsRelinking: allowsRelinking, lifetime: lifetime)
        let token = try await call(ReaderToken.self, .post, "/v1/reader-tokens", merchant, body: request)
        return PaymentCardReader.Token(rawValue: try token.get().token)
    }

    /// A merchant whose admin linked the account through a reader, with an admin token.
    func linkedMerchant(_ name: String = "Corner Shop") async throws -> (Merchant, PaymentCardReader.Token) {
        let merchant = try await merchant(name)
        let token = try await token(merchant)
        try await reader(deviceID: "setup-\(UUID().uuidString.prefix(8))", interface: LoopbackInterface())
            .linkAccount(using: token)
        return (merchant, token)
    }

    /// A reader on `deviceID` talking to this gateway, reading `clock`.
    func reader(
        deviceID: String = "phone-\(UUID().uuidString.prefix(8))", options: PaymentCardReader.Options = .init(),
        interface: (any ContactlessInterface)?, maximumTapAttempts: Int = 3
    ) -> PaymentCardReader {
        PaymentCardReader(
            options: options,
            environment: ReaderEnvironment(
                deviceID: deviceID, gateway: transport, interface: interface, clock: clock.function,
                timeZone: TimeZone(identifier: "UTC") ?? .current, maximumTapAttempts: maximumTapAttempts))
    }

    /// A test card on the loopback, its keys valid from now and reading the clock.
    func card(_ behaviour: TestCard.Behaviour, _ scheme: TestCard.Scheme = .visa) throws -> CardUnderTest {
        let card = try #require(TestCards.card(behaviour, scheme))
        return CardUnderTest(
            card: card,
            channel: try TestCardTapper.card(
                pan: card.pan, scheme: scheme == .visa ? .visa : .mastercard, personalisedOn: clock.now,
                clock: clock.function))
    }

    /// The issuer's available balance of `card`.
    func balance(_ card: TestCard) async throws -> Int? {
        try await SQLIssuerRepository(database: application.database)
            .account(try IssuerKeys.test.keyedHash(of: try PAN(card.pan)))?.availableBalance
    }

    // MARK: - The merchant's server

    /// `POST /v1/payments` with the read's sealed card data, as the merchant's server (API key).
    func authorize(
        _ read: PaymentCardReadResult, minorUnits: Int, for merchant: Merchant, kind: PaymentKind? = nil,
        reason: VerificationReason? = nil
    ) async throws -> Result<Payment, GatewayAPIError> {
        let body = CreatePaymentRequest(
            cardData: try read.sealedCardData(), amount: minorUnits, currency: "EUR", kind: kind,
            verificationReason: reason)
        return try await call(Payment.self, .post, "/v1/payments", merchant, body: body)
    }

    /// `POST /v1/payments/{id}/pin` with a PIN capture's result.
    func submitPIN(
        _ capture: PaymentCardReadResult, payment: String, for merchant: Merchant
    ) async throws -> Result<Payment, GatewayAPIError> {
        try await call(Payment.self, .post, "/v1/payments/\(payment)/pin", merchant, body: try capture.pinSubmission())
    }

    /// `POST /v1/refunds`: a card-present refund of a refund read.
    func refund(
        _ read: PaymentCardReadResult, minorUnits: Int, for merchant: Merchant
    ) async throws -> Result<Refund, GatewayAPIError> {
        let body = CreateRefundRequest(
            amount: minorUnits, reason: "returned", cardData: try read.sealedCardData(), currency: "EUR")
        return try await call(Refund.self, .post, "/v1/refunds", merchant, body: body)
    }

    /// One API call with the merchant's API key: the decoded answer or the problem's error.
    private func call<T: Decodable>(
        _ type: T.Type, _ method: GatewayRequest.Method, _ path: String, _ merchant: Merchant, body: some Encodable
    ) async throws -> Result<T, GatewayAPIError> {
        let response = try await transport.send(
            GatewayRequest(
                method: method, path: path, bearer: merchant.apiKey, body: try JSONEncoder.gatewayAPI.encode(body)))
        let data = try await response.collect()
        if (200..<300).contains(response.status) { return .success(try JSONDecoder.gatewayAPI.decode(T.self, from: data)) }
        return .failure(try JSONDecoder.gatewayAPI.decode(Problem.self, from: data).error)
    }
}

/// A test card and its loopback channel (present it to a ``LoopbackInterface`` to tap).
struct CardUnderTest: Sendable {
    let card: TestCard
    let channel: LoopbackChannel<EmulatedCard>
}
