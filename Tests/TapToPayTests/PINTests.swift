import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import Issuer
import TapToPay
import Testing

@Suite("TapToPay: online PIN the issuer asks for, captured within 55 s of the read")
struct PINTests {
    typealias ReadError = PaymentCardReaderSession.ReadError

    /// A read of `behaviour`'s card authorized to `requiresPIN`, with everything a PIN capture needs.
    struct PINCase {
        let merchant: TapToPayGateway.Merchant
        let reader: PaymentCardReader
        let session: PaymentCardReaderSession
        let card: CardUnderTest
        let read: PaymentCardReadResult
        let payment: Payment
        var token: PaymentCardReaderSession.PINToken {
            PaymentCardReaderSession.PINToken(rawValue: payment.pinRequest?.pinToken ?? "")
        }
    }

    static func requirePIN(
        _ gateway: TapToPayGateway, behaviour: TestCard.Behaviour = .onlinePINRequired,
        pinPad: @escaping @Sendable (PINEntryRequest) async -> PINEntry
    ) async throws -> PINCase {
        let (merchant, token) = try await gateway.linkedMerchant()
        let interface = LoopbackInterface(pinPad: pinPad)
        let reader = gateway.reader(interface: interface)
        let session = try await reader.prepare(using: token)
        let card = try gateway.card(behaviour, .visa)
        await interface.tap(card.channel)
        let read = try await session.readPaymentCard(PaymentCardTransactionRequest(amount: 15, currencyCode: "EUR"))
        let payment = try await gateway.authorize(read, minorUnits: 1_500, for: merchant).get()
        #expect(payment.status == .requiresPIN && payment.pinRequest != nil)
        return PINCase(
            merchant: merchant, reader: reader, session: session, card: card, read: read, payment: payment)
    }

    @Test("online PIN: the PSP asks, the reader captures the PIN, the PSP approves the same read")
    func onlinePIN() async throws {
        try await TapToPayGateway.with { gateway in
            let seen = Deadlines()
            let pinCase = try await Self.requirePIN(gateway) { request in
                seen.append(request.deadline)
                return .entered(TestCards.pin)
            }
            try await EventRecorder.watch(pinCase.reader) { events in
                let capture = try await pinCase.session.capturePIN(
                    using: pinCase.token, cardReaderTransactionID: pinCase.read.id)
                #expect(try await events.rest() == [.pinEntryRequested, .pinEntryCompleted, .userInterfaceDismissed])
                #expect(capture.id == pinCase.read.id && capture.isPINFallback && !capture.pinBypassed)
                #expect(seen.values.first.map { $0.timeIntervalSince(gateway.clock.now) } == 55)
                let submission = try capture.pinSubmission()
                #expect(submission.pinToken == pinCase.token.rawValue && submission.pinBlock.count == 32)
                // The block is ISO 9564 format 4 under the device's PIN key: only the PSP can open it.
                #expect(!(capture.paymentCardData ?? "").contains(TestCards.pin))
                let approved = try await gateway.submitPIN(capture, payment: pinCase.payment.id, for: pinCase.merchant).get()
                #expect(approved.status == .succeeded && approved.capturedAmount == 1_500)
                #expect(try await gateway.balance(pinCase.card.card) == TestCards.balance - 1_500)
            }
        }
    }

    @Test("a wrong PIN is refused by the issuer; the reader captures again within the window")
    func wrongThenRightPIN() async throws {
        try await TapToPayGateway.with { gateway in
            let pins = PINSequence(["0000", TestCards.pin])
            let pinCase = try await Self.requirePIN(gateway) { _ in .entered(pins.next()) }
            let wrong = try await pinCase.session.capturePIN(using: pinCase.token, cardReaderTransactionID: pinCase.read.id)
            await #expect(throws: GatewayAPIError.incorrectPIN) {
                try await gateway.submitPIN(wrong, payment: pinCase.payment.id, for: pinCase.merchant).get()
            }
            gateway.clock.advance(by: 20)
            let right = try await pinCase.session.capturePIN(using: pinCase.token, cardReaderTransactionID: pinCase.read.id)
            #expect(try await gateway.submitPIN(right, payment: pinCase.payment.id, for: pinCase.merchant).get().status == .succeeded)
        }
    }

    @Test("PIN after 55 s: capture is not allowed; a PIN entered past the window times out")
    func pinWindow() async throws {
        try await TapToPayGateway.with { gateway in
            let pinCase = try await Self.requirePIN(gateway) { _ in .entered(TestCards.pin) }
            gateway.clock.advance(by: 56)
            await #expect(throws: ReadError.pinNotAllowed) {
                try await pinCase.session.capturePIN(using: pinCase.token, cardReaderTransactionID: pinCase.read.id)
            }
            // The gateway refuses a PIN that late as well.
            let slow = try await Self.requirePIN(gateway) { request in
                gateway.clock.set(request.deadline.addingTimeInterval(1))
                return .entered(TestCards.pin)
            }
            try await EventRecorder.watch(slow.reader) { events in
                await #expect(throws: ReadError.pinEntryTimeout) {
                    try await slow.session.capturePIN(using: slow.token, cardReaderTransactionID: slow.read.id)
                }
                #expect(try await events.rest() == [.pinEntryRequested, .pinEntryCompleted, .userInterfaceDismissed])
            }
        }
    }

    @Test("PIN pad outcomes: cancelled, timed out, bypassed, an impossible PIN; an empty token or unknown read")
    func pinPadOutcomes() async throws {
        try await TapToPayGateway.with { gateway in
            let entries = PINSequence(["cancel", "timeout", "bypass", "12"])
            let pinCase = try await Self.requirePIN(gateway) { _ in
                switch entries.next() {
                case "cancel": .cancelled
                case "timeout": .timedOut
                case "bypass": .bypassed
                case let pin: .entered(pin)
                }
            }
            let capture = { try await pinCase.session.capturePIN(using: pinCase.token, cardReaderTransactionID: pinCase.read.id) }
            await #expect(throws: ReadError.pinCancelled) { try await capture() }
            await #expect(throws: ReadError.pinEntryTimeout) { try await capture() }
            let bypassed = try await capture()
            #expect(bypassed.pinBypassed && bypassed.paymentCardData == nil && bypassed.isPINFallback)
            await #expect(throws: ReadError.pinEntryFailed) { try await capture() }
            await #expect(throws: ReadError.pinTokenInvalid) {
                try await pinCase.session.capturePIN(
                    using: PaymentCardReaderSession.PINToken(rawValue: ""), cardReaderTransactionID: pinCase.read.id)
            }
            await #expect(throws: ReadError.pinNotAllowed) {
                try await pinCase.session.capturePIN(using: pinCase.token, cardReaderTransactionID: UUID().uuidString)
            }
        }
    }

    @Test("PIN entry is one operation at a time and ends when the app goes to the background")
    func pinBusyAndBackground() async throws {
        try await TapToPayGateway.with { gateway in
            let gate = PINGate()
            let pinCase = try await Self.requirePIN(gateway) { _ in await gate.wait() }
            try await EventRecorder.watch(pinCase.reader) { events in
                async let capture = pinCase.session.capturePIN(
                    using: pinCase.token, cardReaderTransactionID: pinCase.read.id)
                #expect(try await events.take(until: .pinEntryRequested) == [.pinEntryRequested])
                await #expect(throws: ReadError.readerSessionBusy) {
                    try await pinCase.session.readPaymentCard(PaymentCardTransactionRequest(amount: 1, currencyCode: "EUR"))
                }
                await pinCase.reader.applicationDidEnterBackground()
                gate.open(.entered(TestCards.pin))
                await #expect(throws: ReadError.readFromBackgroundError) { try await capture }
                #expect(try await events.rest().first == .notReady)
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
