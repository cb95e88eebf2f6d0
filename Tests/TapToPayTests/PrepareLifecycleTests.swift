import Foundation
import Issuer
import TapToPay
import Testing
import TestMode

/// Apple's rule for leaving the app during the device's configuration: "the prepare(using:) method throws a
/// PaymentCardReaderError.serviceConnectionError error, but configuration continues in the background. When your app
/// returns to the foreground, call prepare(using:) again to finish the previous configuration process and retrieve a
/// new session object."
@Suite("TapToPay: backgrounding during prepare", .serialized)
struct PrepareLifecycleTests {
    /// The live gateway's transport, holding each prepare's request until ``open()``; counts the prepares sent.
    final class GatedTransport: GatewayTransport, @unchecked Sendable {  // its state is behind the lock
        private let base: any GatewayTransport
        private let lock = NSLock()
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private(set) var prepares = 0

        init(_ base: any GatewayTransport) { self.base = base }

        func send(_ request: GatewayRequest) async throws -> GatewayResponse {
            if request.path.hasSuffix("/prepare") {
                await withCheckedContinuation { continuation in
                    let proceed: Bool = lock.withLock {
                        prepares += 1
                        if !isOpen { waiting.append(continuation) }
                        return isOpen
                    }
                    if proceed { continuation.resume() }
                }
            }
            return try await base.send(request)
        }

        /// How many prepares wait at the gate.
        var waitingCount: Int { lock.withLock { waiting.count } }

        /// Lets every prepare through, now and later.
        func open() {
            let released = lock.withLock {
                isOpen = true
                defer { waiting = [] }
                return waiting
            }
            for continuation in released { continuation.resume() }
        }
    }

    @Test("the app leaves mid-configuration: serviceConnectionError at once, then the next prepare finishes it")
    func backgroundDuringPrepare() async throws {
        try await TestGateway.with { gateway in
            let (_, token) = try await gateway.linkedMerchant()
            let gate = GatedTransport(gateway.transport)
            let interface = LoopbackInterface()
            let reader = PaymentCardReader(
                environment: ReaderEnvironment(
                    deviceID: "phone-\(UUID().uuidString.prefix(8))", gateway: gate, interface: interface,
                    clock: gateway.clock.function, timeZone: TimeZone(identifier: "UTC") ?? .current))
            let events = reader.events
            let progress = Task {
                var seen: [PaymentCardReader.Event] = []
                for await event in events {
                    seen.append(event)
                    if event == .updateProgress(100) { break }
                }
                return seen
            }

            let first = Task { try await reader.prepare(using: token) }
            while gate.waitingCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            await reader.applicationDidEnterBackground()
            await #expect(throws: PaymentCardReaderError.serviceConnectionError) { try await first.value }

            // The configuration goes on in the background.
            gate.open()
            let seen = await progress.value
            #expect(seen.contains(.notReady) && seen.last == .updateProgress(100))

            await #expect(throws: PaymentCardReaderError.backgroundRequestNotAllowed) {
                try await reader.prepare(using: token)
            }
            await reader.applicationWillEnterForeground()
            let session = try await reader.prepare(using: token)
            #expect(gate.prepares == 1, "the second prepare started a new configuration")
            let card = try gateway.card(.approve, .visa)
            await interface.tap(card.channel)
            let read = try await session.readPaymentCard(PaymentCardTransactionRequest(amount: 3, currencyCode: "EUR"))
            #expect(read.outcome == .success)
        }
    }
}
