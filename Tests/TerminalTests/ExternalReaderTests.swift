import Foundation
import GatewayAPI
import TapToPay
import Terminal
import Testing
import TestMode

/// A sale on a real PC/SC stack. It needs pcscd with a card in the reader named by `TERMINAL_PCSC_READER`:
/// scripts/test.d/50-pcsc-interop.sh runs it against `tap emulate --vpcd --card visa` (the shipped Visa profile,
/// whose PAN is the approving Visa test card).
@Suite("Terminal: a sale on an external PC/SC reader", .serialized)
struct ExternalReaderTests {
    static let readerName = ProcessInfo.processInfo.environment["TERMINAL_PCSC_READER"]

    @Test("discover the PC/SC reader, connect it, sell: approved", .enabled(if: readerName != nil))
    func sale() async throws {
        let readerName = try #require(Self.readerName)
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant()
            let sdk = ReaderSDK(
                configuration: .init(
                    deviceID: "till-with-reader", gateway: gateway.transport,
                    backend: gateway.server(merchant),
                    tapToPayInterface: nil, clock: gateway.clock.function))
            try await TerminalEvents.record(sdk) { events in
                try await sdk.configureReaderTypes([.external])
                let devices = try await sdk.discoverDevices()
                let device = try #require(devices.first { $0.id == readerName }, "PC/SC lists \(devices)")
                try await sdk.setDisplayName("Reader Shop")
                try await sdk.connect(device)
                try await events.expect(ReaderSDK.Event.firstConfiguration)
                let sale = try await sdk.makeSale(PaymentParameters(amount: 1, currency: "EUR"))
                #expect(sale.isApproved, "\(sale.outcome)")
                #expect(sale.receipt.applicationIdentifier == "A0000000031010")
                #expect(sale.receipt.maskedPAN?.hasPrefix("476173") == true)
                #expect(sale.payment?.deviceId?.hasPrefix("till-with-reader-pcsc-") == true)
                let seen = try await events.drain()
                #expect(
                    seen.first
                        == .paymentScreen(
                            .init(
                                merchantDisplayName: "Reader Shop", purpose: .sale, amount: 1, currency: "EUR")))
                #expect(seen.contains(.reader(.readCompleted)))
                print("Terminal on PC/SC reader \(readerName): \(sale.outcome), \(sale.receipt.maskedPAN ?? "")")
            }
        }
    }
}
