import AsyncHTTPClient
public import CardEmulator
import EMV
public import Foundation
public import Gateway
public import GatewayAPI
import Issuer
public import Logging
public import SmartCard
public import TapToPay
public import Terminal

/// The real gateway on a live loopback port (SQLite, the in-process issuer with the test cards, a hand-moved
/// clock), and what a merchant's server does around a `PaymentCardReader`: onboard merchants and users, issue
/// reader tokens, and authorize the reads' sealed card data with its API key.
public struct TestGateway: Sendable {
    public let application: GatewayApplication
    public let clock: TestClock
    /// The reader SDK's transport to the live port.
    public let transport: HTTPGatewayTransport

    /// Starts a gateway (SQLite, the in-process issuer with the test cards, the clock at now), runs `body`, stops
    /// it and removes its data.
    public static func with<Result: Sendable>(
        logLevel: Logger.Level = .error, _ body: @Sendable (TestGateway) async throws -> Result
    ) async throws -> Result {
        let clock = TestClock(Date())
        var logger = Logger(label: "test-gateway")
        logger.logLevel = logLevel
        return try await RunningGateway.with(logger: logger) { directory in
            GatewayConfiguration(
                port: 0, dataDirectory: directory, issuer: .testIssuer, issuerTimeout: .milliseconds(500),
                reversalInterval: .milliseconds(100), caPublicKeys: try CardProfile.testCAPublicKeys,
                clock: clock.function)
        } _: { running in
            // A client of its own, closed before the server stops: a shared pool could keep a connection to a
            // stopped gateway whose port the next test's gateway gets.
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            let gateway = TestGateway(
                application: running.application, clock: clock,
                transport: HTTPGatewayTransport(baseURL: running.baseURL, client: client))
            do {
                let result = try await body(gateway)
                try await client.shutdown()
                return result
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    /// Onboards a merchant in the database, as `tap merchant` does (not linked: that is the reader's job).
    public func merchant(_ name: String = "Corner Shop") async throws -> TestMerchant {
        try await TestMerchant.onboard(name, in: application.database, now: clock.now)
    }

    /// A reader token for `user` of `merchant`, from the merchant's server (`POST /v1/reader-tokens`).
    public func token(
        _ merchant: TestMerchant, user: String? = nil, allowsRelinking: Bool = false, lifetime: Int? = nil
    ) async throws -> PaymentCardReader.Token {
        let token = try await server(merchant).readerToken(
            for: user ?? merchant.adminId, allowsRelinking: allowsRelinking, lifetime: lifetime)
        return PaymentCardReader.Token(rawValue: token.token)
    }

    /// A merchant whose admin linked the account through a reader, with an admin token.
    public func linkedMerchant(_ name: String = "Corner Shop") async throws -> (TestMerchant, PaymentCardReader.Token) {
        let merchant = try await merchant(name)
        let token = try await token(merchant)
        try await reader(deviceID: "setup-\(UUID().uuidString.prefix(8))", interface: LoopbackInterface())
            .linkAccount(using: token)
        return (merchant, token)
    }

    /// A reader on `deviceID` talking to this gateway, reading `clock`.
    public func reader(
        deviceID: String = "phone-\(UUID().uuidString.prefix(8))", options: PaymentCardReader.Options = .init(),
        interface: (any ContactlessInterface)?, maximumTapAttempts: Int = 3
    ) -> PaymentCardReader {
        PaymentCardReader(
            options: options,
            environment: ReaderEnvironment(
                deviceID: deviceID, gateway: transport, interface: interface, clock: clock.function,
                timeZone: TimeZone(identifier: "UTC") ?? .current, maximumTapAttempts: maximumTapAttempts))
    }

    /// A test card on the loopback with `keyCount` limited-use keys valid from now, reading the clock.
    public func card(
        _ behaviour: TestCard.Behaviour, _ scheme: TestCard.Scheme = .visa, keyCount: Int = 32
    ) throws -> CardUnderTest {
        guard let card = TestCards.card(behaviour, scheme) else {
            throw RunningGatewayError(message: "no test card \(behaviour) for \(scheme)")
        }
        return CardUnderTest(
            card: card,
            channel: try TestCardTapper.card(
                pan: card.pan, scheme: scheme == .visa ? .visa : .mastercard, keyCount: keyCount,
                personalisedOn: clock.now,
                clock: clock.function))
    }

    // MARK: - The merchant's server

    /// `merchant`'s server: Terminal's ``GatewayMerchantBackend`` with its API key, on this gateway's transport.
    public func server(_ merchant: TestMerchant) -> GatewayMerchantBackend {
        GatewayMerchantBackend(transport: transport, apiKey: merchant.apiKey, userID: merchant.adminId)
    }

    /// `POST /v1/payments` with the read's sealed card data, as the merchant's server (API key).
    public func authorize(
        _ read: PaymentCardReadResult, minorUnits: Int, for merchant: TestMerchant, kind: PaymentKind? = nil,
        reason: VerificationReason? = nil
    ) async throws -> Result<Payment, GatewayAPIError> {
        let body = CreatePaymentRequest(
            cardData: try read.sealedCardData(), amount: minorUnits, currency: "EUR", kind: kind,
            verificationReason: reason)
        return try await Self.answer { try await server(merchant).authorizePayment(body) }
    }

    /// `POST /v1/payments/{id}/pin` with a PIN capture's result and the PIN token of the payment that asked.
    public func submitPIN(
        _ capture: PaymentCardReadResult, pinToken: String, payment: String, for merchant: TestMerchant
    ) async throws -> Result<Payment, GatewayAPIError> {
        let submission = try capture.pinSubmission(pinToken: pinToken)
        return try await Self.answer { try await server(merchant).submitPIN(submission, paymentID: payment) }
    }

    /// `POST /v1/refunds`: a card-present refund of a refund read.
    public func refund(
        _ read: PaymentCardReadResult, minorUnits: Int, for merchant: TestMerchant
    ) async throws -> Result<Refund, GatewayAPIError> {
        let body = CreateRefundRequest(
            amount: minorUnits, reason: "returned", cardData: try read.sealedCardData(), currency: "EUR")
        return try await Self.answer { try await server(merchant).refund(body) }
    }

    /// The PSP's answer, its problems as a failure for tests to check; anything else thrown.
    private static func answer<T>(_ call: () async throws -> T) async throws -> Result<T, GatewayAPIError> {
        do {
            return .success(try await call())
        } catch let problem as GatewayAPIError {
            return .failure(problem)
        }
    }
}

/// A test card and its loopback channel (present it to a ``LoopbackInterface`` to tap).
public struct CardUnderTest: Sendable {
    /// The card's account at the test issuer.
    public let card: TestCard
    /// Its loopback channel.
    public let channel: LoopbackChannel<EmulatedCard>
}
