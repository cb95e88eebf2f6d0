import Foundation
import Gateway
import Issuer
import GatewayAPI
import Logging
import ServerDrivenReader
import TapToPay
import TestMode

/// The virtual reader of `tap serve --virtual-reader`: a ``ServerDrivenReader`` in the gateway's own process, on the
/// loopback, talking to the gateway over HTTP like any reader. When it waits for a card it asks the point of sale's
/// picker which test card the customer taps; PINs are the test cards' PIN, entered on its own test PIN pad; the
/// loyalty phone carries the test coffee shop's pass (`pass.dev.contactless.test.coffee`), opened here with its key.
enum VirtualReader {
    static func start(
        readerId: String, baseURL: String, token: @escaping @Sendable () async throws -> String,
        cards: VirtualReaders, logger: Logger
    ) async throws {
        let interface = LoopbackInterface { _ in .entered(TestCards.pin) }
        // The test coffee shop's loyalty program: the pass on the picker's loyalty phone, its key here to open it.
        let program = try TestLoyaltyProgram()
        let transport = HTTPGatewayTransport(baseURL: baseURL, timeout: .seconds(40))
        let sdk = PaymentCardReader(
            environment: ReaderEnvironment(deviceID: readerId, gateway: transport, interface: interface))
        let agent = ServerDrivenReader(
            reader: sdk, transport: transport, token: { PaymentCardReader.Token(rawValue: try await token()) },
            loyaltyKeys: program.decryptor)
        Task {
            // One card per choice for the reader's life: each tap spends its next ATC, as a real card's would
            // (the issuer refuses an ATC it has seen).
            var wallet: [String: LoopbackCard] = [:]
            for await event in sdk.events where event == .readyForTap || event == .readRetry {
                let choice = await cards.nextCard(readerId: readerId)
                if wallet[choice] == nil {
                    wallet[choice] = try? await LoopbackCard(choice, interface: interface, delay: 0, program: program)
                }
                await wallet[choice]?.tap()
            }
        }
        Task {
            do {
                try await agent.run()
            } catch {
                logger.error("the virtual reader stopped", metadata: ["reader": "\(readerId)", "error": "\(error)"])
            }
        }
    }
}

/// Where the gateway listens, once it does (with `--port 0` only the server knows).
actor ListeningAddress {
    private var address: String?
    private var waiters: [CheckedContinuation<String, Never>] = []

    func set(_ address: String) {
        self.address = address
        for waiter in waiters { waiter.resume(returning: address) }
        waiters = []
    }

    func baseURL() async -> String {
        if let address { return address }
        return await withCheckedContinuation { waiters.append($0) }
    }
}
