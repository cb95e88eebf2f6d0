import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Terminal
import Testing
import TestMode

@Suite("TapToPay: online PIN the issuer asks for, captured within 55 s of the read", .serialized)
struct PINTests {
    typealias ReadError = PaymentCardReaderSession.ReadError

    /// Reads `behaviour`'s card at a till and authorizes it to `requiresPIN`; the payment.
    static func requirePIN(
        _ gateway: TestGateway, _ till: Till, behaviour: TestCard.Behaviour = .onlinePINRequired,
        scheme: TestCard.Scheme = .visa
    ) async throws -> (read: PaymentCardReadResult, payment: Payment, token: PaymentCardReaderSession.PINToken) {
        let card = try gateway.card(behaviour, scheme)
        let read = try await till.read(card, PaymentCardTransactionRequest(amount: 15, currencyCode: "EUR"))
        let payment = try await gateway.authorize(read, minorUnits: 1_500, for: till.merchant).get()
        #expect(
            payment.status == .requiresPIN && payment.pinRequest != nil,
            "\(payment.status) \(payment.failureCode ?? "")")
        _ = try await till.events.take(5)
        return (read, payment, PaymentCardReaderSession.PINToken(rawValue: payment.pinRequest?.pinToken ?? ""))
    }

    @Test("online PIN: the PSP asks, the reader captures the PIN, the PSP approves the same read")
    func onlinePIN() async throws {
        try await TestGateway.with { gateway in
            let seen = Deadlines()
            try await gateway.withTill(pinPad: { request in
                seen.append(request.deadline)
                return .entered(TestCards.pin)
            }) { till in
                let (read, payment, token) = try await Self.requirePIN(gateway, till)
                let capture = try await till.session.capturePIN(using: token, cardReaderTransactionID: read.id)
                try await till.events.expectRest([.pinEntryRequested, .pinEntryCompleted, .userInterfaceDismissed])
                #expect(capture.id == read.id && capture.isPINFallback && !capture.pinBypassed)
                #expect(seen.values.first.map { $0.timeIntervalSince(gateway.clock.now) } == 55)
                // As Apple documents: the capture holds the card data and the PIN, sealed together.
                let submission = try capture.pinSubmission(pinToken: token.rawValue)
                #expect(submission.cardData != nil && submission.pinBlock == nil)
                #expect(capture.paymentCardData != nil && capture.paymentCardData != read.paymentCardData)
                let approved = try await gateway.submitPIN(
                    capture, pinToken: token.rawValue, payment: payment.id, for: till.merchant
                ).get()
                #expect(approved.status == .succeeded && approved.capturedAmount == 1_500)
                let card = try #require(TestCards.card(.onlinePINRequired, .visa))
                #expect(try await gateway.balance(card) == TestCards.balance - 1_500)
            }
        }
    }

    @Test("a capture's sealed data pays only its own read's payment; both or neither form is refused")
    func captureBelongsToItsRead() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill(pinPad: { _ in .entered(TestCards.pin) }) { till in
                let (read, payment, token) = try await Self.requirePIN(gateway, till)
                let capture = try await till.session.capturePIN(using: token, cardReaderTransactionID: read.id)
                let server = gateway.server(till.merchant)
                // Never a new payment: its read was spent by the first.
                await #expect(throws: GatewayAPIError.cardDataReplayed) {
                    try await server.authorizePayment(
                        CreatePaymentRequest(cardData: try capture.sealedCardData(), amount: 1_500, currency: "EUR"))
                }
                // The read's own first card data carries no PIN; another read's is not this payment's.
                var first = try capture.pinSubmission(pinToken: token.rawValue)
                first.cardData = try read.sealedCardData()
                await #expect(throws: GatewayAPIError.invalidRequest) {
                    try await server.submitPIN(first, paymentID: payment.id)
                }
                let another = try await till.read(
                    try gateway.card(.approve, .visa), PaymentCardTransactionRequest(amount: 1, currencyCode: "EUR"))
                var other = first
                other.cardData = try another.sealedCardData()
                await #expect(throws: GatewayAPIError.pinNotAllowed) {
                    try await server.submitPIN(other, paymentID: payment.id)
                }
                var both = try capture.pinSubmission(pinToken: token.rawValue)
                both.pinBlock = String(repeating: "0", count: 32)
                await #expect(throws: GatewayAPIError.invalidRequest) {
                    try await server.submitPIN(both, paymentID: payment.id)
                }
                var neither = both
                neither.pinBlock = nil
                neither.cardData = nil
                await #expect(throws: GatewayAPIError.invalidRequest) {
                    try await server.submitPIN(neither, paymentID: payment.id)
                }
                // Still waiting for its PIN: the capture pays it.
                #expect(
                    try await server.submitPIN(
                        try capture.pinSubmission(pinToken: token.rawValue), paymentID: payment.id
                    )
                    .status == .succeeded)
            }
        }
    }

    @Test("a wrong PIN is refused by the issuer; the reader captures again within the window")
    func wrongThenRightPIN() async throws {
        try await TestGateway.with { gateway in
            let pins = PINSequence(["0000", TestCards.pin])
            try await gateway.withTill(pinPad: { _ in .entered(pins.next()) }) { till in
                let (read, payment, token) = try await Self.requirePIN(gateway, till)
                let wrong = try await till.session.capturePIN(using: token, cardReaderTransactionID: read.id)
                await #expect(throws: GatewayAPIError.incorrectPIN) {
                    try await gateway.submitPIN(
                        wrong, pinToken: token.rawValue, payment: payment.id, for: till.merchant
                    )
                    .get()
                }
                gateway.clock.advance(by: 20)
                let right = try await till.session.capturePIN(using: token, cardReaderTransactionID: read.id)
                #expect(
                    try await gateway.submitPIN(
                        right, pinToken: token.rawValue, payment: payment.id, for: till.merchant
                    )
                    .get().status == .succeeded)
            }
        }
    }

    @Test("PIN after 55 s: capture is not allowed; a PIN entered past the window times out")
    func pinWindow() async throws {
        try await TestGateway.with { gateway in
            let lateEntry = PINSequence(["on time", "late"])
            try await gateway.withTill(pinPad: { request in
                if lateEntry.next() == "late" { gateway.clock.set(request.deadline.addingTimeInterval(1)) }
                return .entered(TestCards.pin)
            }) { till in
                let (read, _, token) = try await Self.requirePIN(gateway, till)
                gateway.clock.advance(by: 56)
                await #expect(throws: ReadError.pinNotAllowed) {
                    try await till.session.capturePIN(using: token, cardReaderTransactionID: read.id)
                }
                try await till.events.expectRest([])
                _ = lateEntry.next()
                let slow = try await Self.requirePIN(gateway, till, behaviour: .onlinePINRequired, scheme: .mastercard)
                await #expect(throws: ReadError.pinEntryTimeout) {
                    try await till.session.capturePIN(using: slow.token, cardReaderTransactionID: slow.read.id)
                }
                try await till.events.expectRest([.pinEntryRequested, .pinEntryCompleted, .userInterfaceDismissed])
            }
        }
    }

    @Test("PIN pad outcomes: cancelled, timed out, bypassed, an impossible PIN; an empty token or unknown read")
    func pinPadOutcomes() async throws {
        try await TestGateway.with { gateway in
            let entries = PINSequence(["cancel", "timeout", "bypass", "12"])
            let pad: @Sendable (PINEntryRequest) async -> PINEntry = { _ in
                switch entries.next() {
                case "cancel": .cancelled
                case "timeout": .timedOut
                case "bypass": .bypassed
                case let pin: .entered(pin)
                }
            }
            try await gateway.withTill(pinPad: pad) { till in
                let (read, _, token) = try await Self.requirePIN(gateway, till)
                let session = till.session
                await #expect(throws: ReadError.pinCancelled) {
                    try await session.capturePIN(using: token, cardReaderTransactionID: read.id)
                }
                await #expect(throws: ReadError.pinEntryTimeout) {
                    try await session.capturePIN(using: token, cardReaderTransactionID: read.id)
                }
                let bypassed = try await session.capturePIN(using: token, cardReaderTransactionID: read.id)
                #expect(bypassed.pinBypassed && bypassed.paymentCardData == nil && bypassed.isPINFallback)
                await #expect(throws: ReadError.pinEntryFailed) {
                    try await session.capturePIN(using: token, cardReaderTransactionID: read.id)
                }
                await #expect(throws: ReadError.pinTokenInvalid) {
                    try await session.capturePIN(
                        using: PaymentCardReaderSession.PINToken(rawValue: ""), cardReaderTransactionID: read.id)
                }
                await #expect(throws: ReadError.pinNotAllowed) {
                    try await session.capturePIN(using: token, cardReaderTransactionID: UUID().uuidString)
                }
            }
        }
    }

    @Test("PIN entry is one operation at a time and ends when the app goes to the background")
    func pinBusyAndBackground() async throws {
        try await TestGateway.with { gateway in
            let gate = PINGate()
            try await gateway.withTill(pinPad: { _ in await gate.wait() }) { till in
                let (read, _, token) = try await Self.requirePIN(gateway, till)
                async let capture = till.session.capturePIN(using: token, cardReaderTransactionID: read.id)
                try await till.events.expectNext([.pinEntryRequested])
                await #expect(throws: ReadError.readerSessionBusy) {
                    try await till.session.readPaymentCard(
                        PaymentCardTransactionRequest(amount: 1, currencyCode: "EUR"))
                }
                await till.reader.applicationDidEnterBackground()
                gate.open(.entered(TestCards.pin))
                do {
                    _ = try await capture
                    Issue.record("the capture did not fail")
                } catch {
                    #expect(error as? ReadError == ReadError.readFromBackgroundError)
                }
                try await till.events.expectRest([
                    .notReady, .pinEntryCompleted, .readNotCompleted, .userInterfaceDismissed,
                ])
            }
        }
    }

    @Test("online PIN the card's CVM asks for: entered during the read, sent with it, verified by the issuer")
    func kernelChosenOnlinePIN() async throws {
        try await TestGateway.with { gateway in
            let pins = PINSequence([TestCards.pin, "9999", "cancel"])
            let pad: @Sendable (PINEntryRequest) async -> PINEntry = { _ in
                let pin = pins.next()
                return pin == "cancel" ? .cancelled : .entered(pin)
            }
            try await gateway.withTill(pinPad: pad) { till in
                // Over the 50.00 EUR CVM limit: the kernel's CVM is online PIN.
                let request = PaymentCardTransactionRequest(amount: 60, currencyCode: "EUR")
                let channel = try gateway.onlinePINCard(.approve)
                await till.interface.tap(channel)
                let read = try await till.session.readPaymentCard(request)
                try await till.events.expectNext([
                    .readyForTap, .cardDetected, .removeCard, .pinEntryRequested, .pinEntryCompleted, .readCompleted,
                    .userInterfaceDismissed,
                ])
                #expect(!read.isPINFallback && !read.pinBypassed)
                let approved = try await gateway.authorize(read, minorUnits: 6_000, for: till.merchant).get()
                #expect(approved.status == .succeeded && approved.pinRequest == nil)
                let card = try #require(TestCards.card(.approve, .visa))
                #expect(try await gateway.balance(card) == TestCards.balance - 6_000)

                // A wrong PIN reaches the issuer too, which declines it (response 55).
                await till.interface.tap(channel)
                let wrong = try await till.session.readPaymentCard(request)
                _ = try await till.events.take(7)
                let declined = try await gateway.authorize(wrong, minorUnits: 6_000, for: till.merchant).get()
                #expect(declined.status != .succeeded && declined.issuer?.responseCode == "55")
                #expect(try await gateway.balance(card) == TestCards.balance - 6_000)

                // Cancelling the PIN pad ends the read without card data.
                await till.interface.tap(channel)
                await #expect(throws: ReadError.pinCancelled) { try await till.session.readPaymentCard(request) }
                try await till.events.expectNext([
                    .readyForTap, .cardDetected, .removeCard, .pinEntryRequested, .pinEntryCompleted,
                    .userInterfaceDismissed,
                ])
            }
        }
    }
}

/// Values a PIN pad saw, in order.
final class Deadlines: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Date] = []
    func append(_ date: Date) { lock.withLock { seen.append(date) } }
    var values: [Date] { lock.withLock { seen } }
}

/// A PIN pad's scripted entries, one per call.
final class PINSequence: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String]
    init(_ entries: [String]) { self.entries = entries }
    func next() -> String { lock.withLock { entries.isEmpty ? "" : entries.removeFirst() } }
}

/// A PIN pad that waits until the test opens it.
final class PINGate: @unchecked Sendable {
    private let lock = NSLock()
    private var waiter: CheckedContinuation<PINEntry, Never>?
    private var result: PINEntry?

    func wait() async -> PINEntry {
        await withCheckedContinuation { continuation in
            let ready: PINEntry? = lock.withLock {
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func open(_ entry: PINEntry) {
        let waiting: CheckedContinuation<PINEntry, Never>? = lock.withLock {
            result = entry
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(returning: entry)
    }
}
