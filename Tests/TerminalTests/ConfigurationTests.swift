import Foundation
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Terminal
import Testing
import TestMode

@Suite("Terminal: reader types, discovery, connect, display name, saved devices", .serialized)
struct ConfigurationTests {
    @Test("reader types: an empty set, or Tap to Pay on a phone without NFC, is an error; discovery needs types")
    func readerTypes() async throws {
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant()
            let backend = gateway.server(merchant)
            let withoutNFC = ReaderSDK(
                configuration: .init(
                    deviceID: "old-phone", gateway: gateway.transport, backend: backend, tapToPayInterface: nil))
            await #expect(throws: TerminalError.noReaderTypes) { try await withoutNFC.configureReaderTypes([]) }
            await #expect(throws: TerminalError.tapToPayUnavailable) {
                try await withoutNFC.configureReaderTypes([.tapToPay])
            }
            await #expect(throws: TerminalError.notConfigured) { try await withoutNFC.discoverDevices() }
            #expect(await withoutNFC.configuredReaderTypes.isEmpty)
            // An external reader needs no NFC on the phone.
            try await withoutNFC.configureReaderTypes([.external])
            #expect(await withoutNFC.configuredReaderTypes == [.external])
            await #expect(throws: TerminalError.readerTypeNotConfigured) { try await withoutNFC.connect(.tapToPay) }

            try await gateway.withShop(connect: false) { shop in
                await #expect(throws: TerminalError.notConfigured) { try await shop.sdk.connect(.tapToPay) }
                try await shop.sdk.configureReaderTypes([.tapToPay])
                #expect(await shop.sdk.configuredReaderTypes == [.tapToPay])
                let devices = try await shop.sdk.discoverDevices()
                #expect(devices.map(\.id) == ["iOS Tap To Pay"] && devices.first?.readerType == .tapToPay)
                try await shop.sdk.configureReaderTypes([.tapToPay, .external])
                #expect(await shop.sdk.configuredReaderTypes == [.tapToPay, .external])
                #expect(try await shop.sdk.discoverDevices().first == .tapToPay)
            }
        }
    }

    @Test("external readers: discovery lists PC/SC's readers (none without pcscd); an unknown one is not found")
    func externalReaders() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop(connect: false) { shop in
                try await shop.sdk.configureReaderTypes([.external])
                try await shop.sdk.setDisplayName(Shop.displayName)
                // What PC/SC lists here, independently of the terminal: nothing when libpcsclite or pcscd is absent.
                let listed = (try? PCSCContext().readerNames()) ?? []
                let devices = try await shop.sdk.discoverDevices()
                #expect(devices.map(\.id) == listed && devices.allSatisfy { $0.readerType == .external })
                await #expect(throws: TerminalError.deviceNotFound) {
                    try await shop.sdk.connect(.external(readerName: "No Such Reader 00 00"))
                }
                // Nothing was sent to the PSP, and nothing was configured.
                #expect(shop.requests.take().isEmpty)
                try await shop.events.expect([])
                #expect(await shop.sdk.connectedDevice == nil)
            }
        }
    }

    @Test("first connect: the admin links the account, the PSP's first prepare reports progress")
    func firstConnect() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop(connect: false) { shop in
                try await shop.sdk.configureReaderTypes([.tapToPay])
                try await shop.sdk.setDisplayName(Shop.displayName)
                let report = try await shop.sdk.connect(.tapToPay)
                #expect(!report.reusedSavedDevice && report.device == .tapToPay)
                try await shop.events.expect(ReaderSDK.Event.firstConfiguration)
                #expect(
                    shop.requests.take() == [
                        "GET /v1/account-links", "POST /v1/account-links",
                        "POST /v1/devices/\(shop.sdk.configuration.deviceID)/prepare",
                    ])
                #expect(await shop.sdk.connectedDevice == .tapToPay)
                #expect(await shop.sdk.savedDevice == .tapToPay)
            }
        }
    }

    @Test("a staff user's terminal cannot link the merchant's account: connect fails, nothing is connected")
    func staffCannotLink() async throws {
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant()
            let staffServer: @Sendable (GatewayMerchantBackend) -> any MerchantBackend = { admin in
                GatewayMerchantBackend(transport: admin.transport, apiKey: merchant.apiKey, userID: merchant.staffId)
            }
            try await gateway.withShop(merchant: merchant, connect: false, backend: staffServer) { shop in
                try await shop.sdk.configureReaderTypes([.tapToPay])
                try await shop.sdk.setDisplayName(Shop.displayName)
                await #expect(throws: PaymentCardReaderError.notAllowed) {
                    try await shop.sdk.connect(.tapToPay)
                }
                try await shop.events.expect([.configurationStatus(.configuring), .configurationStatus(.failed)])
                #expect(await shop.sdk.connectedDevice == nil)
                #expect(await shop.sdk.savedDevice == nil)
                await #expect(throws: TerminalError.notConnected) {
                    try await shop.sdk.makeSale(PaymentParameters(amount: 1, currency: "EUR"))
                }
            }
        }
    }

    @Test("reconnecting the saved device skips the link check and the first-prepare progress: 1 request, not 4")
    func savedDeviceReconnect() async throws {
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant()
            let deviceID = "counter-phone-1"
            try await gateway.withShop(deviceID: deviceID, merchant: merchant, connect: false) { shop in
                try await shop.sdk.configureReaderTypes([.tapToPay])
                try await shop.sdk.setDisplayName(Shop.displayName)
                let connect = try await shop.sdk.connect(.tapToPay)
                try await shop.events.expect(ReaderSDK.Event.firstConfiguration)
                // The backend's token call goes to the server, not through the reader's transport.
                #expect(shop.requests.take().count == 3)
                try await shop.sdk.disconnect()
                try await shop.events.expect([.configurationStatus(.disconnected)])
                let again = try await shop.sdk.connect(.tapToPay)
                #expect(again.reusedSavedDevice)
                try await shop.events.expect(ReaderSDK.Event.reconfiguration)
                #expect(shop.requests.take() == ["POST /v1/devices/\(deviceID)/prepare"])
                print("Terminal connect: first \(connect.elapsed), reconnect to the saved device \(again.elapsed)")
            }
            // The app kept the device: a new terminal on the same phone reconnects it the quick way too.
            try await gateway.withShop(deviceID: deviceID, merchant: merchant, connect: false, savedDevice: .tapToPay) {
                shop in
                try await shop.sdk.configureReaderTypes([.tapToPay])
                try await shop.sdk.setDisplayName(Shop.displayName)
                let report = try await shop.sdk.connect(.tapToPay)
                #expect(report.reusedSavedDevice)
                try await shop.events.expect(ReaderSDK.Event.reconfiguration)
                #expect(shop.requests.take() == ["POST /v1/devices/\(deviceID)/prepare"])
                print("Terminal connect: a new terminal to the saved device \(report.elapsed)")
                let card = try gateway.card(.approve, .visa)
                #expect(try await shop.sale(card, 2).isApproved)
            }
        }
    }

    @Test("no display name, or an empty one: the payment screen and receipt show the merchant's name at the PSP")
    func merchantNameByDefault() async throws {
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant("Bäckerei Rahn")
            try await gateway.withShop(merchant: merchant, connect: false) { shop in
                try await shop.sdk.configureReaderTypes([.tapToPay])
                try await shop.sdk.setDisplayName("  ")
                #expect(await shop.sdk.displayName == nil)
                try await shop.sdk.connect(.tapToPay)
                try await shop.events.expect(ReaderSDK.Event.firstConfiguration)
                let sale = try await shop.sale(try gateway.card(.approve, .visa), 4)
                #expect(sale.isApproved && sale.receipt.merchantDisplayName == "Bäckerei Rahn")
            }
        }
    }

    @Test("the display name is shown on the payment screen and receipt; changing it needs a reconnect")
    func displayName() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let card = try gateway.card(.approve, .visa)
                let sale = try await shop.sale(card, 3, description: "2 coffees")
                #expect(sale.receipt.merchantDisplayName == Shop.displayName)
                let screen = ReaderSDK.PaymentScreen(
                    merchantDisplayName: Shop.displayName, purpose: .sale, amount: 3, currency: "EUR",
                    paymentDescription: "2 coffees")
                try await shop.events.expect([.paymentScreen(screen)] + ReaderSDK.Event.readSucceeded)

                try await shop.sdk.setDisplayName(Shop.displayName)  // the same name: nothing changes
                await #expect(throws: TerminalError.displayNameRequiresReconnect) {
                    try await shop.sdk.setDisplayName("Corner Shop Potsdam")
                }
                #expect(await shop.sdk.displayName == Shop.displayName)
                try await shop.sdk.disconnect()
                try await shop.sdk.setDisplayName("Corner Shop Potsdam")
                await #expect(throws: TerminalError.notConnected) {
                    try await shop.sdk.makeSale(PaymentParameters(amount: 1, currency: "EUR"))
                }
                try await shop.sdk.connect(.tapToPay)
                let renamed = try await shop.sale(card, 4)
                #expect(renamed.receipt.merchantDisplayName == "Corner Shop Potsdam")
                let events = try await shop.events.drain()
                #expect(
                    events.contains(
                        .paymentScreen(
                            .init(
                                merchantDisplayName: "Corner Shop Potsdam", purpose: .sale, amount: 4, currency: "EUR"))
                    ))
            }
        }
    }

    @Test("the 4th merchant on a phone within 24 h: connect fails with deviceBanned(until)")
    func fourthMerchant() async throws {
        try await TestGateway.with { gateway in
            let deviceID = "shared-phone-7"
            for index in 1...3 {
                let merchant = try await gateway.merchant("Shop \(index)")
                // Each merchant's first prepare on the phone registers it anew for that merchant.
                try await gateway.withShop(deviceID: deviceID, merchant: merchant) { _ in }
                gateway.clock.advance(by: 60)
            }
            let fourth = try await gateway.merchant("Shop 4")
            try await gateway.withShop(deviceID: deviceID, merchant: fourth, connect: false) { shop in
                try await shop.sdk.configureReaderTypes([.tapToPay])
                try await shop.sdk.setDisplayName("Shop 4")
                await #expect {
                    try await shop.sdk.connect(.tapToPay)
                } throws: {
                    guard case PaymentCardReaderError.deviceBanned(let until?) = $0 else { return false }
                    return until > gateway.clock.now
                }
                try await shop.events.expect([.configurationStatus(.configuring), .configurationStatus(.failed)])
                #expect(await shop.sdk.connectedDevice == nil)
            }
        }
    }

    @Test("the merchant's API key and the reader token never show in descriptions or dumps")
    func secretsStayHidden() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withShop { shop in
                let backend = gateway.server(shop.merchant)
                var dumped = ""
                dump(backend, to: &dumped)
                dump(shop.sdk.configuration, to: &dumped)
                let token = try await backend.readerToken()
                let shown = "\(backend) \(shop.sdk.configuration) \(token) \(dumped)"
                #expect(!shown.contains(shop.merchant.apiKey) && !shown.contains(token.token))
                #expect(shown.contains(shop.merchant.adminId))
            }
        }
    }
}
