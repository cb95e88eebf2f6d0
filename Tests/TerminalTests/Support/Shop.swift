import Foundation
import GatewayAPI
import TapToPay
import Terminal
import Testing
import TestMode

/// A merchant's shop: an onboarded merchant whose server is the real gateway backend, a phone with a loopback NFC
/// interface, and a terminal on it whose events are recorded.
struct Shop: Sendable {
    let gateway: TestGateway
    let merchant: TestMerchant
    let interface: LoopbackInterface
    let sdk: ReaderSDK
    let events: TerminalEvents
    let requests: CountingTransport

    static let displayName = "Corner Shop Berlin"

    /// The payment screen event of this shop for `amount` EUR.
    static func screen(_ amount: Decimal, _ purpose: ReaderSDK.PaymentScreen.Purpose = .sale) -> ReaderSDK.Event {
        .paymentScreen(.init(merchantDisplayName: displayName, purpose: purpose, amount: amount, currency: "EUR"))
    }

    /// Taps `card`, then makes the sale.
    func sale(_ card: CardUnderTest, _ amount: Decimal, description: String? = nil) async throws -> SaleResult {
        await interface.tap(card.channel)
        return try await sdk.makeSale(
            PaymentParameters(amount: amount, currency: "EUR", paymentDescription: description))
    }
}

extension TestGateway {
    /// Runs `body` with a shop whose terminal is configured for Tap to Pay, named, and (when `connect`) connected
    /// to the phone, its configuration's events already checked and taken.
    func withShop(
        deviceID: String = "phone-\(UUID().uuidString.prefix(8))", merchant: TestMerchant? = nil,
        connect: Bool = true, savedDevice: Device? = nil, reconnectsAutomatically: Bool = false,
        backend: (@Sendable (GatewayMerchantBackend) -> any MerchantBackend)? = nil,
        pinPad: @escaping @Sendable (PINEntryRequest) async -> PINEntry = { _ in .cancelled },
        _ body: @Sendable (Shop) async throws -> Void
    ) async throws {
        let merchant = try await { if let merchant { return merchant } else { return try await self.merchant() } }()
        let requests = CountingTransport(base: transport)
        let server = self.server(merchant)
        let interface = LoopbackInterface(pinPad: pinPad)
        let sdk = ReaderSDK(
            configuration: ReaderSDK.Configuration(
                deviceID: deviceID, gateway: requests, backend: backend?(server) ?? server,
                tapToPayInterface: interface,
                savedDevice: savedDevice, clock: clock.function, timeZone: TimeZone(identifier: "UTC") ?? .current,
                reconnectsAutomatically: reconnectsAutomatically))
        try await TerminalEvents.record(sdk) { events in
            let shop = Shop(
                gateway: self, merchant: merchant, interface: interface, sdk: sdk, events: events, requests: requests)
            if connect {
                try await sdk.configureReaderTypes([.tapToPay])
                try await sdk.setDisplayName(Shop.displayName)
                try await sdk.connect(.tapToPay)
                // Only a merchant's first prepare of a device reports progress: the PSP registers the phone for
                // each merchant on its own (its own terminal id and PIN key).
                try await events.expect(ReaderSDK.Event.firstConfiguration)
            }
            try await body(shop)
        }
    }
}

/// The reader's transport to the gateway, counting the requests it carries (a reconnect's round trips).
final class CountingTransport: GatewayTransport, @unchecked Sendable {
    private let base: any GatewayTransport
    private let lock = NSLock()
    private var paths: [String] = []

    init(base: any GatewayTransport) { self.base = base }

    func send(_ request: GatewayRequest) async throws -> GatewayResponse {
        lock.withLock { paths.append("\(request.method.rawValue) \(request.path.prefix { $0 != "?" })") }
        return try await base.send(request)
    }

    /// The requests sent since the last call (method and path without the query), taken.
    func take() -> [String] {
        lock.withLock {
            defer { paths.removeAll() }
            return paths
        }
    }
}

/// The merchant's server, slowed down: `delay` seconds pass on the test clock before it authorizes (or before it
/// sends a PIN), as when the network or the server stalls.
struct SlowBackend: MerchantBackend {
    let base: GatewayMerchantBackend
    let clock: TestClock
    var authorizationDelay: TimeInterval = 0
    var pinDelay: TimeInterval = 0

    func readerToken() async throws -> ReaderToken { try await base.readerToken() }

    func authorizePayment(_ request: CreatePaymentRequest) async throws -> Payment {
        clock.advance(by: authorizationDelay)
        return try await base.authorizePayment(request)
    }

    func submitPIN(_ submission: PINSubmission, paymentID: String) async throws -> Payment {
        clock.advance(by: pinDelay)
        return try await base.submitPIN(submission, paymentID: paymentID)
    }

    func refund(_ request: CreateRefundRequest) async throws -> Refund { try await base.refund(request) }
}
