import Foundation
import Issuer
import TapToPay
import Terminal
import Testing
import TestMode

@Suite("Terminal: one operation at a time, cancel, background and foreground", .serialized)
struct LifecycleTests {
    static let screen = Shop.screen(7)

    /// Starts a sale, sends the app to the background while it waits for a card, and checks that it fails as
    /// Apple's reads do, with the reader's events and then `then`.
    static func saleFailsInBackground(_ shop: Shop, then trailing: [ReaderSDK.Event]) async throws {
        let sdk = shop.sdk
        let waiting = Task { try await sdk.makeSale(PaymentParameters(amount: 7, currency: "EUR")) }
        try await shop.events.wait(for: .reader(.readyForTap))
        await sdk.applicationDidEnterBackground()
        await #expect(throws: PaymentCardReaderSession.ReadError.readFromBackgroundError) { try await waiting.value }
        try await shop.events.expect(
            [
                .configurationStatus(.notReady), .reader(.notReady), .reader(.readNotCompleted),
                .reader(.userInterfaceDismissed),
            ] + trailing)
    }

    @Test("busy: while a sale waits for a card, every other operation fails with busy; cancel ends the sale")
    func busyAndCancel() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let sdk = shop.sdk
                #expect(await sdk.cancel() == false)
                let waiting = Task { try await sdk.makeSale(PaymentParameters(amount: 7, currency: "EUR")) }
                try await shop.events.wait(for: .reader(.readyForTap))
                await #expect(throws: TerminalError.busy) {
                    try await sdk.makeSale(PaymentParameters(amount: 1, currency: "EUR"))
                }
                await #expect(throws: TerminalError.busy) {
                    try await sdk.refund(PaymentParameters(amount: 1, currency: "EUR"))
                }
                await #expect(throws: TerminalError.busy) { try await sdk.verifyCard(currency: "EUR") }
                await #expect(throws: TerminalError.busy) { try await sdk.connect(.tapToPay) }
                await #expect(throws: TerminalError.busy) { try await sdk.disconnect() }
                await #expect(throws: TerminalError.busy) { try await sdk.setDisplayName("Other") }
                await #expect(throws: TerminalError.busy) { try await sdk.configureReaderTypes([.tapToPay]) }
                #expect(await sdk.cancel())
                await #expect(throws: PaymentCardReaderSession.ReadError.readCancelled) { try await waiting.value }
                try await shop.events.expect([.reader(.readCancelled), .reader(.userInterfaceDismissed)])
                // Free again.
                let card = try gateway.card(.approve, .visa)
                #expect(try await shop.sale(card, 7).isApproved)
                try await shop.events.expect([Self.screen] + ReaderSDK.Event.readSucceeded)
            }
        }
    }

    @Test("reconnecting automatically: background during a sale fails it; in the foreground it configures again")
    func backgroundDuringSale() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop(reconnectsAutomatically: true) { shop in
                let sdk = shop.sdk
                try await Self.saleFailsInBackground(shop, then: [])
                // No sale in the background, and no configuring either.
                await #expect(throws: PaymentCardReaderSession.ReadError.readFromBackgroundError) {
                    try await sdk.makeSale(PaymentParameters(amount: 7, currency: "EUR"))
                }
                try await shop.events.expect([])
                _ = shop.requests.take()
                try await sdk.applicationWillEnterForeground()
                try await shop.events.expect(ReaderSDK.Event.reconfiguration)
                #expect(shop.requests.take() == ["POST /v1/devices/\(sdk.configuration.deviceID)/prepare"])
                let card = try gateway.card(.approve, .mastercard)
                #expect(try await shop.sale(card, 7).isApproved)
                try await shop.events.expect([Self.screen] + ReaderSDK.Event.readSucceeded)
            }
        }
    }

    @Test("by default backgrounding disconnects; back in the foreground the app connects the saved device again")
    func backgroundDisconnects() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let sdk = shop.sdk
                await sdk.applicationDidEnterBackground()
                try await shop.events.expect([
                    .configurationStatus(.notReady), .reader(.notReady), .configurationStatus(.disconnected),
                ])
                #expect(await sdk.connectedDevice == nil)
                try await sdk.applicationWillEnterForeground()
                try await shop.events.expect([])
                await #expect(throws: TerminalError.notConnected) {
                    try await sdk.makeSale(PaymentParameters(amount: 7, currency: "EUR"))
                }
                let saved = try #require(await sdk.savedDevice)
                _ = shop.requests.take()
                let report = try await sdk.connect(saved)
                #expect(report.reusedSavedDevice)
                try await shop.events.expect(ReaderSDK.Event.reconfiguration)
                #expect(shop.requests.take() == ["POST /v1/devices/\(sdk.configuration.deviceID)/prepare"])

                // A sale running when the app leaves fails, and then the terminal disconnects.
                try await Self.saleFailsInBackground(shop, then: [.configurationStatus(.disconnected)])
                #expect(await sdk.connectedDevice == nil)
            }
        }
    }

    @Test("reconnecting automatically, background while idle: configured again in the foreground")
    func backgroundIdle() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop(reconnectsAutomatically: true) { shop in
                await shop.sdk.applicationDidEnterBackground()
                try await shop.events.expect([.configurationStatus(.notReady), .reader(.notReady)])
                // Backgrounding twice, or a foreground without a connection, is harmless.
                await shop.sdk.applicationDidEnterBackground()
                try await shop.events.expect([.configurationStatus(.notReady), .reader(.notReady)])
                try await shop.sdk.applicationWillEnterForeground()
                try await shop.events.expect(ReaderSDK.Event.reconfiguration)
                try await shop.sdk.applicationWillEnterForeground()
                try await shop.events.expect([])
                let card = try gateway.card(.approve, .visa)
                #expect(try await shop.sale(card, 7).isApproved)
                try await shop.events.expect([Self.screen] + ReaderSDK.Event.readSucceeded)

                // Disconnected in the background: no connecting there; back in the foreground, the device connects.
                await shop.sdk.applicationDidEnterBackground()
                try await shop.sdk.disconnect()
                await #expect(throws: PaymentCardReaderError.backgroundRequestNotAllowed) {
                    try await shop.sdk.connect(.tapToPay)
                }
                try await shop.events.expect([
                    .configurationStatus(.notReady), .reader(.notReady), .configurationStatus(.disconnected),
                ])
                try await shop.sdk.applicationWillEnterForeground()
                try await shop.sdk.connect(.tapToPay)
                try await shop.events.expect(ReaderSDK.Event.reconfiguration)
                #expect(try await shop.sale(card, 7).isApproved)
            }
        }
    }

    @Test("a reader session expires after 12 hours: the next sale prepares again quietly and goes through")
    func sessionExpiry() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                gateway.clock.advance(by: 12 * 60 * 60 + 1)
                _ = shop.requests.take()
                let card = try gateway.card(.approve, .visa)
                #expect(try await shop.sale(card, 7).isApproved)
                try await shop.events.expect(
                    [Self.screen] + ReaderSDK.Event.reconfiguration + ReaderSDK.Event.readSucceeded)
                #expect(shop.requests.take() == ["POST /v1/devices/\(shop.sdk.configuration.deviceID)/prepare"])
            }
        }
    }
}
