import EMV
import Foundation
import Issuer
import TapToPay
import Testing
import TestMode

@Suite("TapToPay: an observer for SDKs layered on the reader; the application label in general card data", .serialized)
struct ObserverTests {
    /// The events an observer was handed, in order.
    final class Observed: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [PaymentCardReader.Event] = []
        func append(_ event: PaymentCardReader.Event) { lock.withLock { events.append(event) } }
        var all: [PaymentCardReader.Event] { lock.withLock { events } }
    }

    @Test("the observer sees each event before the call returns; the read's general data names the application")
    func observer() async throws {
        try await TestGateway.with { gateway in
            let (_, token) = try await gateway.linkedMerchant()
            let interface = LoopbackInterface()
            let observed = Observed()
            let reader = PaymentCardReader(
                environment: ReaderEnvironment(
                    deviceID: "observed-phone", gateway: gateway.transport, interface: interface,
                    clock: gateway.clock.function)
            ) { observed.append($0) }
            let session = try await reader.prepare(using: token)
            #expect(observed.all == [0, 25, 50, 75, 100].map(PaymentCardReader.Event.updateProgress))
            let card = try gateway.card(.approve, .visa)
            await interface.tap(card.channel)
            let read = try await session.readPaymentCard(PaymentCardTransactionRequest(amount: 1, currencyCode: "EUR"))
            #expect(observed.all.suffix(5) == Till.readEvents)
            let general = try read.generalTLV()
            #expect(general.first(.applicationLabel).map { String(decoding: $0.value, as: UTF8.self) } == "VISA CREDIT")
            #expect(general.first(.dedicatedFileName).map { $0.value.hexString } == "A0000000031010")
        }
    }
}
