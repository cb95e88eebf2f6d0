import CardEmulator
import EMV
import Foundation
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Testing
import TestMode

@Suite("TapToPay: taps that fail, busy readers, cancel, background and foreground", .serialized)
struct CardReadTests {
    typealias ReadError = PaymentCardReaderSession.ReadError
    static let purchase = PaymentCardTransactionRequest(amount: 4.20, currencyCode: "EUR")

    @Test("a card removed mid-read: readRetry, then the next tap reads it")
    func retry() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let card = try gateway.card(.approve, .visa)
                await card.channel.setFaults(FaultPlan(faults: [.cardRemoved(afterCommands: 2)]))
                async let reading = till.read(card, Self.purchase)
                try await till.events.expectNext([.readyForTap, .cardDetected, .readRetry])
                // The cardholder taps again.
                await till.interface.tap(card.channel)
                let read = try await reading
                try await till.events.expectRest(Till.readEvents)
                #expect(
                    try await gateway.authorize(read, minorUnits: 420, for: till.merchant).get().status == .succeeded)
            }
        }
    }

    @Test(
        "a card that keeps leaving the field: cardReadFailed after the last attempt; a card without payment: cardNotSupported"
    )
    func failures() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill(maximumTapAttempts: 2) { till in
                let card = try gateway.card(.approve, .mastercard)
                await card.channel.setFaults(
                    FaultPlan(faults: [
                        .cardRemoved(at: .instruction(.getProcessingOptions, occurrence: 1)),
                        .cardRemoved(at: .instruction(.getProcessingOptions, occurrence: 2)),
                    ]))
                await till.interface.tap(card.channel)
                await #expect(throws: ReadError.cardReadFailed) { try await till.read(card, Self.purchase) }
                try await till.events.expectNext([
                    .readyForTap, .cardDetected, .readRetry, .readyForTap, .cardDetected, .readNotCompleted,
                    .userInterfaceDismissed,
                ])

                till.interface.present(LoopbackChannel(applet: CardWithoutPayment()))
                await #expect(throws: ReadError.cardNotSupported) {
                    try await till.session.readPaymentCard(Self.purchase)
                }
                try await till.events.expectRest([
                    .readyForTap, .cardDetected, .readNotCompleted, .userInterfaceDismissed,
                ])
            }
        }
    }

    @Test("busy: a second read, and a prepare, while a read waits; cancelRead ends it with readCancelled")
    func busyAndCancel() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let session = till.session
                #expect(await session.cancelRead() == false)
                async let waiting = session.readPaymentCard(Self.purchase)
                try await till.events.expectNext([.readyForTap])
                await #expect(throws: ReadError.readerSessionBusy) { try await session.readPaymentCard(Self.purchase) }
                await #expect(throws: ReadError.readerSessionBusy) {
                    try await session.readPaymentCard(PaymentCardVerificationRequest(currencyCode: "EUR"))
                }
                await #expect(throws: PaymentCardReaderError.readerBusy) {
                    try await till.reader.prepare(using: till.token)
                }
                #expect(await session.cancelRead())
                do {
                    _ = try await waiting
                    Issue.record("the waiting did not fail")
                } catch {
                    #expect(error as? ReadError == ReadError.readCancelled)
                }
                try await till.events.expectRest([.readCancelled, .userInterfaceDismissed])

                // The session reads again afterwards.
                #expect(try await till.read(try gateway.card(.approve, .visa), Self.purchase).outcome == .success)
                try await till.events.expectRest(Till.readEvents)
            }
        }
    }

    @Test(
        "background ends the session: the waiting read fails, reads and prepares in the background fail, the foreground needs a new prepare"
    )
    func backgroundAndForeground() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let (reader, session) = (till.reader, till.session)
                async let waiting = session.readPaymentCard(Self.purchase)
                _ = try await till.events.take(until: .readyForTap)
                await reader.applicationDidEnterBackground()
                do {
                    _ = try await waiting
                    Issue.record("the waiting did not fail")
                } catch {
                    #expect(error as? ReadError == ReadError.readFromBackgroundError)
                }
                try await till.events.expectRest([.notReady, .readNotCompleted, .userInterfaceDismissed])

                await #expect(throws: ReadError.readFromBackgroundError) {
                    try await session.readPaymentCard(Self.purchase)
                }
                await #expect(throws: PaymentCardReaderError.backgroundRequestNotAllowed) {
                    try await reader.prepare(using: till.token)
                }
                await reader.applicationWillEnterForeground()
                await #expect(throws: PaymentCardReaderError.notReady) {
                    try await session.readPaymentCard(Self.purchase)
                }

                let fresh = try await reader.prepare(using: till.token)
                await till.interface.tap(try gateway.card(.approve, .mastercard).channel)
                let read = try await fresh.readPaymentCard(Self.purchase)
                #expect(
                    try await gateway.authorize(read, minorUnits: 420, for: till.merchant).get().status == .succeeded)
                // A session that a later prepare replaced (not backgrounded) has no reader session.
                _ = try await reader.prepare(using: till.token)
                await #expect(throws: ReadError.noReaderSession) { try await fresh.readPaymentCard(Self.purchase) }
                try await till.events.expectRest(Till.readEvents)
            }
        }
    }

    @Test(
        "returnReadResultImmediately: the result comes before the sheet closes; it closes when the session is next used"
    )
    func immediateResult() async throws {
        try await TestGateway.with { gateway in
            let options = PaymentCardReader.Options(includeErrorInReadResult: false, returnReadResultImmediately: true)
            try await gateway.withTill(options: options) { till in
                let card = try gateway.card(.approve, .visa)
                _ = try await till.read(card, Self.purchase)
                try await till.events.expectRest([.readyForTap, .cardDetected, .removeCard, .readCompleted])
                _ = try await till.read(card, Self.purchase)
                try await till.events.expectRest([
                    .userInterfaceDismissed, .readyForTap, .cardDetected, .removeCard, .readCompleted,
                ])
                await till.reader.applicationDidEnterBackground()
                try await till.events.expectRest([.userInterfaceDismissed, .notReady])
            }
        }
    }

    @Test("the reader session expires after 12 hours: readerSessionExpired")
    func sessionExpiry() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                gateway.clock.advance(by: 12 * 60 * 60)
                await #expect(throws: ReadError.readerSessionExpired) {
                    try await till.session.readPaymentCard(Self.purchase)
                }
            }
        }
    }

    @Test(
        "requests are checked before the card is read",
        arguments: [
            (PaymentCardTransactionRequest(amount: 0, currencyCode: "EUR"), ReadError.invalidAmount),
            (PaymentCardTransactionRequest(amount: -1, currencyCode: "EUR"), .invalidAmount),
            (PaymentCardTransactionRequest(amount: Decimal(string: "1.005")!, currencyCode: "EUR"), .invalidAmount),
            (PaymentCardTransactionRequest(amount: Decimal(string: "1.5")!, currencyCode: "JPY"), .invalidAmount),
            (
                PaymentCardTransactionRequest(amount: Decimal(string: "10000000000")!, currencyCode: "EUR"),
                .invalidAmount
            ),
            (PaymentCardTransactionRequest(amount: 1, currencyCode: "EURO"), .invalidCurrencyCode),
            (PaymentCardTransactionRequest(amount: 1, currencyCode: "XQZ"), .invalidCurrencyCode),
            (ValidationCases.request(aids: 5, length: 7), .invalidPreferredAID),
            (ValidationCases.request(aids: 1, length: 4), .invalidPreferredAID),
            (ValidationCases.request(aids: 1, length: 17), .invalidPreferredAID),
            (ValidationCases.request(.surchargeAmount(10)), .invalidAmount),
            (ValidationCases.request(.surchargePercent(Decimal(string: "0.5")!)), .invalidAmount),
            (ValidationCases.request(.surchargePercent(Decimal(string: "2.125")!)), .invalidAmount),
            (ValidationCases.request(.preauthorizationAmount(11)), .invalidAmount),
            (ValidationCases.request(.preauthorization, type: .refund), .invalidAmount),
        ])
    func validation(_ request: PaymentCardTransactionRequest, _ expected: ReadError) async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                await till.interface.tap(try gateway.card(.approve, .visa).channel)
                await #expect(throws: expected) { try await till.session.readPaymentCard(request) }
                // Nothing was read: the tap still waits, and the reader showed nothing.
                #expect(till.interface.pendingTaps == 1)
                try await till.events.expectRest([])
            }
        }
    }

    @Test("valid descriptions, four preferred AIDs and a verification in a known currency are accepted")
    func validRequests() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let card = try gateway.card(.approve, .visa)
                for request in [
                    ValidationCases.request(aids: 4, length: 7),
                    ValidationCases.request(.surchargeAmount(Decimal(string: "0.50")!)),
                    ValidationCases.request(.surchargePercent(Decimal(string: "2.25")!)),
                    ValidationCases.request(.preauthorizationAmount(10)), ValidationCases.request(.preauthorization),
                ] {
                    #expect(try await till.read(card, request).outcome == .success)
                }
                await #expect(throws: ReadError.invalidCurrencyCode) {
                    try await till.session.readPaymentCard(PaymentCardVerificationRequest(currencyCode: "E1R"))
                }
            }
        }
    }
}

/// Requests for the validation tests.
enum ValidationCases {
    /// A 10.00 EUR purchase preferring `aids` AIDs of `length` bytes (Visa's RID, padded).
    static func request(aids: Int, length: Int) -> PaymentCardTransactionRequest {
        var request = PaymentCardTransactionRequest(amount: 10, currencyCode: "EUR")
        let aid = Data([0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10] + Array(repeating: 0x01, count: 16)).prefix(length)
        request.preferredAIDList = Array(repeating: Data(aid), count: aids)
        return request
    }

    /// A 10.00 EUR request of `type` with `description`.
    static func request(
        _ description: PaymentCardTransactionRequest.TransactionAmountDescription,
        type: PaymentCardTransactionRequest.TransactionType = .purchase
    ) -> PaymentCardTransactionRequest {
        var request = PaymentCardTransactionRequest(amount: 10, currencyCode: "EUR", for: type)
        request.transactionDescription = description
        return request
    }
}
