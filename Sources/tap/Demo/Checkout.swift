import EMV
import Foundation
import GatewayAPI
import Issuer
import Logging
import TapToPay
import TestMode
import ValueAddedServices

/// `tap demo`'s merchant checkout, the way a point-of-sale app runs it on Tap to Pay: the merchant's admin links the
/// account on the phone, the reader prepares (the first time with progress), the customer taps a test card, the
/// merchant's server authorizes the sealed read at the PSP (a gateway in this process: SQLite, ISO 8583 to the
/// issuer host), and the app shows the result and a receipt. The online-PIN path captures the PIN the issuer asks
/// for on the reader's PIN pad; the decline path shows what the merchant can offer instead.
struct Checkout: Sendable {
    /// Which story the demo tells.
    enum Path: String, Sendable, Encodable {
        /// A card the issuer approves.
        case approval
        /// A card whose issuer asks for the PIN online; the cardholder enters the test PIN.
        case onlinePIN
        /// A card the issuer declines for insufficient funds.
        case decline

        var behaviour: TestCard.Behaviour {
            switch self {
            case .approval: .approve
            case .onlinePIN: .onlinePINRequired
            case .decline: .insufficientFunds
            }
        }
    }

    var card: DemoCard
    var amount: Amount
    var path: Path
    /// Whether the customer's phone also carries the shop's loyalty pass, read in the same tap.
    var loyalty = false
    /// Told each step as it happens (the text output); steps only name what the app's screen shows.
    var show: @Sendable (CheckoutStep) -> Void = { _ in }

    /// Runs the checkout on a gateway that lives as long as this call.
    func run() async throws -> CheckoutReport {
        try await TestGateway.with(logLevel: .critical) { gateway in
            let merchant = try await gateway.merchant("Corner Shop")
            let token = try await gateway.token(merchant)
            let interface = LoopbackInterface { _ in .entered(TestCards.pin) }
            let reader = gateway.reader(deviceID: "demo-iphone", interface: interface)
            let events = EventLog()
            return try await reader.watchingEvents { event in
                events.append(event)
                show(.event(event))
            } during: {
                try await sell(
                    gateway: gateway, merchant: merchant, token: token, reader: reader, interface: interface,
                    events: events)
            }
        }
    }

    private func sell(
        gateway: TestGateway, merchant: TestMerchant, token: PaymentCardReader.Token, reader: PaymentCardReader,
        interface: LoopbackInterface, events: EventLog
    ) async throws -> CheckoutReport {
        if try await !reader.isAccountLinked(using: token) {
            try await reader.linkAccount(using: token)
            show(.linked(admin: "owner@\(merchant.id).example"))
        }
        let session = try await reader.prepare(using: token)
        // Events arrive on their own task: let the progress finish on screen before the next step.
        await events.wait(until: { $0.contains(.updateProgress(100)) })
        show(.prepared)
        guard let testCard = TestCards.card(path.behaviour, card.scheme) else {
            throw CommandFailure("no \(path.behaviour) test card for \(card.rawValue)")
        }
        let request = PaymentCardTransactionRequest(
            amount: amount.decimalValue, currencyCode: amount.currency.alphabeticCode)
        show(.waitingForCard(amount.formatted))
        let tapped = try gateway.card(path.behaviour, card.scheme)
        let read: PaymentCardReadResult
        var member: CheckoutReport.Loyalty?
        if loyalty {
            // The customer's phone: the card and the coffee shop's pass; one tap gives both.
            let program = try TestLoyaltyProgram()
            await interface.tap(await program.phone(carrying: tapped.channel, clock: gateway.clock.function))
            let vasRequest = VASRequest(
                vasMerchants: [
                    VASRequest.Merchant(id: TestLoyaltyProgram.passTypeIdentifier, localizedName: "Test Coffee")
                ],
                localizedVASType: "Test Coffee rewards")
            let (payment, passes) = try await session.readPaymentCard(
                request, vasRequest: vasRequest, stopOnVASResult: false)
            guard let payment else { throw CommandFailure("the tap read the pass but not the card") }
            read = payment
            member = try Self.member(in: passes, program: program, now: gateway.clock.now)
        } else {
            await interface.tap(tapped.channel)
            read = try await session.readPaymentCard(request)
        }
        await events.wait(until: { $0.filter { $0 == .userInterfaceDismissed }.count >= 1 })
        show(.read(read.applicationTypeIdentifier ?? "?"))
        if loyalty { show(.loyalty(member?.memberId)) }
        var payment = try await gateway.authorize(read, minorUnits: amount.minorUnits, for: merchant).get()
        var pin: CheckoutReport.PIN?
        if payment.status == .requiresPIN, let pinRequest = payment.pinRequest {
            show(.pinRequested)
            let capture = try await session.capturePIN(
                using: PaymentCardReaderSession.PINToken(rawValue: pinRequest.pinToken),
                cardReaderTransactionID: read.id)
            await events.wait(until: { $0.filter { $0 == .userInterfaceDismissed }.count >= 2 })
            payment = try await gateway.submitPIN(
                capture, pinToken: pinRequest.pinToken, payment: payment.id, for: merchant
            ).get()
            pin = CheckoutReport.PIN(
                requestedBy: "issuer", entered: !capture.pinBypassed, status: payment.status.rawValue)
        }
        show(.authorized(payment.status.rawValue))
        return CheckoutReport(
            path: path, merchant: "Corner Shop", merchantId: merchant.id, deviceId: reader.environment.deviceID,
            testCard: testCard.behaviour.rawValue, read: read, payment: payment, pin: pin, loyalty: member,
            events: events.names, amount: amount, date: gateway.clock.now)
    }

    /// What the merchant's server makes of the tap's VAS result: the member id, decrypted with the shop's key.
    private static func member(in passes: VASReadResult?, program: TestLoyaltyProgram, now: Date) throws
        -> CheckoutReport.Loyalty
    {
        guard let entry = passes?.entries.first else {
            throw CommandFailure("the phone answered no loyalty application")
        }
        guard entry.status == .success, let data = entry.customerVASData else {
            return CheckoutReport.Loyalty(
                passTypeIdentifier: entry.id, status: "\(entry.status)", memberId: nil, cryptogramBytes: 0)
        }
        let opened = try program.decryptor.decrypt(data, passTypeIdentifier: entry.id, now: now)
        return CheckoutReport.Loyalty(
            passTypeIdentifier: entry.id, status: "\(entry.status)", memberId: opened.message,
            cryptogramBytes: data.count)
    }
}

extension DemoCard {
    /// The test issuer's scheme of this card.
    var scheme: TestCard.Scheme {
        switch self {
        case .visa: .visa
        case .mastercard: .mastercard
        }
    }
}

/// What the app's screen shows as the checkout goes.
enum CheckoutStep: Sendable {
    case linked(admin: String)
    case prepared
    case waitingForCard(String)
    case read(String)
    case pinRequested
    case authorized(String)
    /// The merchant's server decrypted the pass read in the tap: the member id, or nil when none answered.
    case loyalty(String?)
    case event(PaymentCardReader.Event)
}

/// The reader's events as they came, for the report; steps wait on it so the screen shows them in order.
final class EventLog: @unchecked Sendable {
    typealias Condition = @Sendable ([PaymentCardReader.Event]) -> Bool
    private let lock = NSLock()
    private var events: [PaymentCardReader.Event] = []
    private var waiters: [(condition: Condition, continuation: CheckedContinuation<Void, Never>)] = []

    func append(_ event: PaymentCardReader.Event) {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            events.append(event)
            let ready = waiters.filter { $0.condition(events) }
            waiters.removeAll { $0.condition(events) }
            return ready.map(\.continuation)
        }
        ready.forEach { $0.resume() }
    }

    /// Returns once the events so far meet `condition`.
    func wait(until condition: @escaping Condition) async {
        await withCheckedContinuation { continuation in
            let met = lock.withLock { () -> Bool in
                guard !condition(events) else { return true }
                waiters.append((condition, continuation))
                return false
            }
            if met { continuation.resume() }
        }
    }

    /// `updateProgress(40)`, `readyForTap`, …
    var names: [String] {
        lock.withLock {
            events.map { event in
                if case .updateProgress(let percent) = event { return "updateProgress(\(percent))" }
                return event.name
            }
        }
    }
}
