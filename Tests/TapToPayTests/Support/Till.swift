import TapToPay
import Testing
import TestMode

/// A merchant's till: a linked merchant, a reader on a fresh device with a loopback interface, its events
/// recorded, and a prepared session (the first prepare's progress events already taken).
struct Till: Sendable {
    let merchant: TestMerchant
    let token: PaymentCardReader.Token
    let interface: LoopbackInterface
    let reader: PaymentCardReader
    let session: PaymentCardReaderSession
    let events: EventRecorder

    /// The events of a read that succeeds.
    static let readEvents: [PaymentCardReader.Event] = [
        .readyForTap, .cardDetected, .removeCard, .readCompleted, .userInterfaceDismissed,
    ]

    /// Taps `card` and reads it for `request`.
    func read(_ card: CardUnderTest, _ request: PaymentCardTransactionRequest) async throws -> PaymentCardReadResult {
        await interface.tap(card.channel)
        return try await session.readPaymentCard(request)
    }
}

extension TestGateway {
    /// Runs `body` with a ready ``Till``.
    func withTill(
        options: PaymentCardReader.Options = .init(), maximumTapAttempts: Int = 3,
        pinPad: @escaping @Sendable (PINEntryRequest) async -> PINEntry = { _ in .cancelled },
        _ body: @Sendable (Till) async throws -> Void
    ) async throws {
        let (merchant, token) = try await linkedMerchant()
        let interface = LoopbackInterface(pinPad: pinPad)
        let reader = reader(options: options, interface: interface, maximumTapAttempts: maximumTapAttempts)
        try await EventRecorder.watch(reader) { events in
            let session = try await reader.prepare(using: token)
            #expect(try await events.take(5).map(\.name) == Array(repeating: "updateProgress", count: 5))
            try await body(
                Till(
                    merchant: merchant, token: token, interface: interface, reader: reader, session: session,
                    events: events))
        }
    }
}
