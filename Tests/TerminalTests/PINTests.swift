import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import Issuer
import TapToPay
import Terminal
import Testing
import TestMode

/// PIN pad entries in order, for a cardholder who mistypes.
final class PINPad: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [PINEntry]
    private(set) var deadlines: [Date] = []

    init(_ entries: [PINEntry]) { self.entries = entries }

    func enter(_ request: PINEntryRequest) -> PINEntry {
        lock.withLock {
            deadlines.append(request.deadline)
            return entries.isEmpty ? .cancelled : entries.removeFirst()
        }
    }
}

@Suite("Terminal: the online PIN the issuer asks for", .serialized)
struct PINTests {
    static let screen = Shop.screen(15)

    @Test("online PIN: the sale reads, the issuer asks, the cardholder enters it, approved with CVM online PIN")
    func onlinePIN() async throws {
        try await TestGateway.with { gateway in
            let pad = PINPad([.entered(TestCards.pin)])
            try await gateway.withShop(pinPad: { pad.enter($0) }) { shop in
                let card = try gateway.card(.onlinePINRequired, .visa)
                let sale = try await shop.sale(card, 15)
                try await shop.events.expect([Self.screen] + ReaderSDK.Event.readSucceeded + ReaderSDK.Event.pinEntered)
                #expect(sale.isApproved && sale.receipt.cardholderVerification == .onlinePIN)
                #expect(sale.receipt.authorizationCode != nil)
                #expect(pad.deadlines.count == 1)
                #expect(try await gateway.balance(card.card) == TestCards.balance - 1_500)
            }
        }
    }

    @Test("a wrong PIN, then the right one within the window: approved after two PIN entries")
    func wrongThenRight() async throws {
        try await TestGateway.with { gateway in
            let pad = PINPad([.entered("0000"), .entered(TestCards.pin)])
            try await gateway.withShop(pinPad: { pad.enter($0) }) { shop in
                let sale = try await shop.sale(try gateway.card(.onlinePINRequired, .mastercard), 15)
                try await shop.events.expect(
                    [Self.screen] + ReaderSDK.Event.readSucceeded + ReaderSDK.Event.pinEntered
                        + ReaderSDK.Event.pinEntered)
                #expect(sale.isApproved && pad.deadlines.count == 2)
            }
        }
    }

    @Test("a card whose PIN never matches: after 3 entries the sale fails with the PSP's incorrectPIN")
    func pinTriesRunOut() async throws {
        try await TestGateway.with { gateway in
            let pad = PINPad(Array(repeating: .entered(TestCards.pin), count: 5))
            try await gateway.withShop(pinPad: { pad.enter($0) }) { shop in
                let result: SaleResult
                do {
                    result = try await shop.sale(try gateway.card(.incorrectPIN, .visa), 15)
                } catch {
                    // The PSP may answer the last wrong PIN with an error rather than a declined payment.
                    #expect(error is GatewayAPIError, "\(error)")
                    #expect(pad.deadlines.count == 3)
                    return
                }
                guard case .declined(let reason) = result.outcome else {
                    Issue.record("a card without a matching PIN was approved")
                    return
                }
                #expect(reason.source == .issuer && pad.deadlines.count <= 3)
            }
        }
    }

    @Test("a bypassed PIN: declined by the cardholder, nothing debited")
    func bypassed() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop(pinPad: { _ in .bypassed }) { shop in
                let card = try gateway.card(.onlinePINRequired, .visa)
                let sale = try await shop.sale(card, 15)
                try await shop.events.expect([Self.screen] + ReaderSDK.Event.readSucceeded + ReaderSDK.Event.pinEntered)
                #expect(sale.outcome == .declined(DeclineReason(source: .cardholder, code: "pinBypassed")))
                #expect(try await gateway.balance(card.card) == TestCards.balance)
            }
        }
    }

    @Test("PIN after 55 s: a PIN entered past the window times out")
    func pinEnteredLate() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop(pinPad: { request in
                gateway.clock.set(request.deadline.addingTimeInterval(1))
                return .entered(TestCards.pin)
            }) { shop in
                let card = try gateway.card(.onlinePINRequired, .visa)
                await #expect(throws: PaymentCardReaderSession.ReadError.pinEntryTimeout) {
                    try await shop.sale(card, 15)
                }
                try await shop.events.expect([Self.screen] + ReaderSDK.Event.readSucceeded + ReaderSDK.Event.pinEntered)
                #expect(try await gateway.balance(card.card) == TestCards.balance)
            }
        }
    }

    @Test("PIN after 55 s: when the server answers 56 s after the read, the PSP declines without asking for the PIN")
    func serverAnswersLate() async throws {
        try await TestGateway.with { gateway in
            let slow: @Sendable (GatewayMerchantBackend) -> any MerchantBackend = {
                SlowBackend(base: $0, clock: gateway.clock, authorizationDelay: 56)
            }
            let pad = PINPad([.entered(TestCards.pin)])
            try await gateway.withShop(backend: slow, pinPad: { pad.enter($0) }) { shop in
                let card = try gateway.card(.onlinePINRequired, .mastercard)
                let sale = try await shop.sale(card, 15)
                #expect(
                    sale.outcome == .declined(DeclineReason(source: .issuer, code: "pinNotAllowed", responseCode: "65"))
                )
                #expect(sale.receipt.outcome == "DECLINED")
                // The PIN pad never opened.
                try await shop.events.expect([Self.screen] + ReaderSDK.Event.readSucceeded)
                #expect(pad.deadlines.isEmpty)
                #expect(try await gateway.balance(card.card) == TestCards.balance)
            }
        }
    }

    @Test(
        "online PIN the card's CVM asks for (over the CVM limit): entered during the read, approved; a wrong one declined"
    )
    func pinDuringRead() async throws {
        try await TestGateway.with { gateway in
            let pad = PINPad([.entered(TestCards.pin), .entered("9999")])
            try await gateway.withShop(pinPad: { pad.enter($0) }) { shop in
                let readWithPIN: [ReaderSDK.Event] = [
                    Shop.screen(60), .reader(.readyForTap), .reader(.cardDetected), .reader(.removeCard),
                    .reader(.pinEntryRequested), .reader(.pinEntryCompleted), .reader(.readCompleted),
                    .reader(.userInterfaceDismissed),
                ]
                let channel = try gateway.onlinePINCard(.approve)
                await shop.interface.tap(channel)
                let sale = try await shop.sdk.makeSale(PaymentParameters(amount: 60, currency: "EUR"))
                try await shop.events.expect(readWithPIN)
                #expect(sale.isApproved && sale.receipt.cardholderVerification == .onlinePIN)
                let card = try #require(TestCards.card(.approve, .visa))
                #expect(try await gateway.balance(card) == TestCards.balance - 6_000)

                await shop.interface.tap(channel)
                let wrong = try await shop.sdk.makeSale(PaymentParameters(amount: 60, currency: "EUR"))
                try await shop.events.expect(readWithPIN)
                guard case .declined(let reason) = wrong.outcome else {
                    Issue.record("a wrong PIN was approved")
                    return
                }
                #expect(reason.source == .issuer && reason.responseCode == "55")
                #expect(try await gateway.balance(card) == TestCards.balance - 6_000)
            }
        }
    }
}
