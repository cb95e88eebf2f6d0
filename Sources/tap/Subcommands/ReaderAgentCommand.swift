import ArgumentParser
import CardEmulator
import EMV
import Foundation
import GatewayAPI
import Issuer
import ServerDrivenReader
import SmartCard
import TapToPay
import TestMode
import ValueAddedServices

extension Tap {
    /// `tap reader`: a reader the gateway drives.
    struct ReaderAgentCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reader",
            abstract: "Run a reader the gateway drives: point-of-sale apps send it payments through the gateway.",
            discussion: """
                Prepares this device for the merchant with the TapToPay SDK (the merchant's admin must have \
                accepted the Terms and Conditions), then asks the gateway for commands — take a payment, refund \
                to a card, verify a card, cancel — and runs them: the customer taps on --pcsc (a USB NFC reader, \
                or vpcd) or on the --loopback with a test card; the reader's events (ready for tap, card \
                detected, PIN entry…) go to the gateway as they happen and on to the point of sale; the sealed \
                read goes to the gateway, which authorizes it. A PIN the issuer asks for is entered here (the \
                terminal's PIN pad, or the test PIN for test cards), sealed with the read, never sent in clear.

                Credentials: a reader token (--reader-token, or CONTACTLESS_READER_TOKEN), or the merchant's API \
                key and a user (--api-key or CONTACTLESS_API_KEY, with --user), from which the reader asks for \
                tokens itself when it needs to prepare again.

                --loopback takes visa or mastercard (approving test cards), load-N (the N-th of the 128 approving \
                load-test cards, each an account of its own), wallet (the Visa test card in a phone \
                wallet that verified its holder), loyalty (a phone with the test coffee shop's loyalty pass, \
                pass.dev.contactless.test.coffee, beside the Visa card), a test card behaviour with an optional scheme \
                (insufficientFunds, onlinePINRequired-mastercard, doNotHonour…), or a card profile (JSON). Each \
                run's card starts at ATC 1, and the issuer refuses an ATC it has seen: restart the reader against \
                the same gateway with another card.
                """)

        @Option(help: "The gateway's URL.") var gateway = "http://127.0.0.1:8080"
        @Option(help: ArgumentHelp("This reader's device id (as the point of sale lists it).", valueName: "id"))
        var deviceId = "reader-1"
        @Option(help: ArgumentHelp("A reader token of the merchant.", valueName: "token"))
        var readerToken: String?
        @Option(help: ArgumentHelp("The merchant's API key, to ask for reader tokens.", valueName: "sk_…"))
        var apiKey: String?
        @Option(help: ArgumentHelp("With --api-key: the merchant user the tokens are for.", valueName: "usr_…"))
        var user: String?
        @Option(
            name: .customLong("pcsc"),
            help: ArgumentHelp("Read cards on this PC/SC reader ('' for any).", valueName: "name"))
        var pcscReader: String?
        @Option(help: ArgumentHelp("Read a test card on the loopback instead.", valueName: "card"))
        var loopback: String?
        @Option(help: ArgumentHelp("Where PINs are entered: terminal or test (the test cards' PIN).", valueName: "pad"))
        var pinPad: PINPadChoice?
        @Option(help: ArgumentHelp("With --loopback: seconds before the card is tapped.", valueName: "seconds"))
        var tapDelay = 0.0
        @Option(
            help: ArgumentHelp(
                "The merchant's VAS private key (PEM), to open the loyalty passes read (repeatable; --loopback "
                    + "loyalty brings its test key).", valueName: "file"))
        var vasKey: [String] = []
        @Flag(help: "Print each activity as a JSON line.") var json = false

        enum PINPadChoice: String, ExpressibleByArgument {
            case terminal, test
        }

        func validate() throws {
            guard (pcscReader == nil) != (loopback == nil) else {
                throw ValidationError("give --pcsc [NAME] or --loopback CARD (one of them)")
            }
            guard
                readerToken != nil || environment("CONTACTLESS_READER_TOKEN") != nil
                    || ((apiKey ?? environment("CONTACTLESS_API_KEY")) != nil && user != nil)
            else {
                throw ValidationError("give --reader-token, or --api-key and --user")
            }
            guard (0...60).contains(tapDelay) else { throw ValidationError("--tap-delay must be from 0 to 60") }
        }

        func run() async throws {
            // Long polls wait up to 25 s: the transport's timeout leaves room for them.
            let transport = HTTPGatewayTransport(baseURL: gateway, timeout: .seconds(40))
            let pad = pinPad ?? (loopback != nil ? .test : .terminal)
            let enterPIN: @Sendable (PINEntryRequest) async -> PINEntry
            if pad == .test {
                enterPIN = { @Sendable _ in .entered(TestCards.pin) }
            } else {
                enterPIN = { @Sendable request in await TerminalPINPad.enter(request) }
            }
            let interface: any ContactlessInterface
            var card: LoopbackCard?
            var loyaltyKeys = try vasKey.map(loadVASKey)
            if let loopback {
                let loopbackInterface = LoopbackInterface(pinPad: enterPIN)
                let program = try TestLoyaltyProgram()
                if loopback == "loyalty" { loyaltyKeys.append(program.merchantKey) }
                card = try await LoopbackCard(loopback, interface: loopbackInterface, delay: tapDelay, program: program)
                interface = loopbackInterface
            } else {
                interface = try PCSCInterface(
                    readerName: pcscReader?.isEmpty == true ? nil : pcscReader, pinPad: enterPIN)
            }
            let sdk = PaymentCardReader(
                environment: ReaderEnvironment(deviceID: deviceId, gateway: transport, interface: interface))
            let tokens = TokenSource(
                readerToken: readerToken ?? environment("CONTACTLESS_READER_TOKEN"),
                apiKey: apiKey ?? environment("CONTACTLESS_API_KEY"), user: user, transport: transport)
            let json = json
            let deviceId = deviceId
            let agent = ServerDrivenReader(
                reader: sdk, transport: transport, token: { try await tokens.next() },
                loyaltyKeys: loyaltyKeys.isEmpty ? nil : VASDecryptor(keys: loyaltyKeys)
            ) { activity in Self.show(activity, deviceId: deviceId, json: json) }
            // The loopback's customer taps the card whenever the reader waits for one.
            let tapping = Task {
                guard let card else { return }
                for await event in sdk.events where event == .readyForTap || event == .readRetry {
                    await card.tap()
                }
            }
            defer { tapping.cancel() }
            try await agent.run()
        }

        private func environment(_ name: String) -> String? {
            ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }

        static func show(_ activity: ServerDrivenReader.Activity, deviceId: String, json: Bool) {
            let (kind, text): (String, String)
            switch activity {
            case .prepared(let name):
                (kind, text) = ("prepared", "prepared as \(deviceId) for \(name ?? "the merchant")")
            case .connected: (kind, text) = ("connected", "connected: waiting for commands")
            case .unreachable(let delay):
                (kind, text) = ("unreachable", "the gateway is unreachable; again in \(delay)")
            case .started(let command): (kind, text) = ("started", "command \(command.id): \(describe(command))")
            case .cancelRequested(let id):
                (kind, text) = ("cancelRequested", "command \(id): canceled at the point of sale")
            case .ended(let command): (kind, text) = ("ended", "command \(command.id): \(outcome(command))")
            }
            var line = text
            if json,
                let data = try? JSONSerialization.data(
                    withJSONObject: ["activity": kind, "text": text], options: [.sortedKeys])
            {
                line = String(decoding: data, as: UTF8.self)
            }
            // Unbuffered: a line as it happens, also into a pipe or a file.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }

        private static func describe(_ command: ReaderCommand) -> String {
            let amount = command.amount.flatMap { minor in
                Currency(alphabeticCode: command.currency).map { Amount(minorUnits: minor, currency: $0).formatted }
            }
            return [command.type.rawValue, amount].compactMap { $0 }.joined(separator: " ")
        }

        private static func outcome(_ command: ReaderCommand) -> String {
            if let payment = command.result?.payment, command.status == .completed {
                return "payment \(payment.id) \(payment.status.rawValue)"
            }
            if let refund = command.result?.refund { return "refund \(refund.id)" }
            return "\(command.status.rawValue)" + (command.result?.failure.map { ": \($0.message)" } ?? "")
        }
    }
}

/// Where `tap reader` gets reader tokens: the one given, or new ones from the merchant's API key.
actor TokenSource {
    private let readerToken: String?
    private let apiKey: String?
    private let user: String?
    private let transport: HTTPGatewayTransport

    init(readerToken: String?, apiKey: String?, user: String?, transport: HTTPGatewayTransport) {
        self.readerToken = readerToken
        self.apiKey = apiKey
        self.user = user
        self.transport = transport
    }

    func next() async throws -> PaymentCardReader.Token {
        if let readerToken { return PaymentCardReader.Token(rawValue: readerToken) }
        guard let apiKey, let user else { throw CommandFailure("no reader token and no API key") }
        let response = try await transport.send(
            GatewayRequest(
                method: .post, path: "/v1/reader-tokens", bearer: apiKey,
                body: try JSONEncoder.gatewayAPI.encode(ReaderTokenRequest(userId: user))))
        let body = try await response.collect()
        guard response.status == 201 || response.status == 200 else {
            let problem = try? JSONDecoder.gatewayAPI.decode(Problem.self, from: body)
            throw CommandFailure("the gateway gave no reader token: \(problem?.detail ?? "HTTP \(response.status)")")
        }
        return PaymentCardReader.Token(rawValue: try JSONDecoder.gatewayAPI.decode(ReaderToken.self, from: body).token)
    }
}

/// The loopback's card, tapped when the reader waits for one.
struct LoopbackCard: Sendable {
    let interface: LoopbackInterface
    let delay: Double
    /// Enters the field (a card already there leaves and comes back, so its applet resets).
    private let enter: @Sendable () async -> Void

    /// The card `name` on `interface`; `loyalty` (the phone with a loyalty pass) carries `program`'s pass.
    init(
        _ name: String, interface: LoopbackInterface, delay: Double, program: TestLoyaltyProgram? = nil
    ) async throws {
        self.interface = interface
        self.delay = delay
        switch name {
        case "wallet":
            // The Visa test card as a phone wallet holds it: the holder verified on the phone before each tap.
            let card = try Self.visaCard(TestCards.loadTestCards[TestCards.loadTestCardsPerScheme - 1])
            let channel = LoopbackChannel(applet: WalletApplet(card: card, cardholderVerifiedOnPhone: true))
            enter = { await interface.tap(channel) }
        case "loyalty":
            // A phone with the shop's loyalty pass beside the Visa card.
            let program = try program ?? TestLoyaltyProgram()
            let channel = await program.phone(
                carrying: LoopbackChannel(
                    applet: try Self.visaCard(TestCards.loadTestCards[TestCards.loadTestCardsPerScheme - 2])))
            enter = { await interface.tap(channel) }
        case let path where path.hasSuffix(".json"):
            let channel = LoopbackChannel(
                applet: try EmulatedCardSource.file(path).profile().certified().personalize())
            enter = { await interface.tap(channel) }
        case let load where load.hasPrefix("load-"):
            guard let index = Int(load.dropFirst(5)), TestCards.loadTestCards.indices.contains(index) else {
                throw ValidationError("--loopback \(load): the load-test cards are load-0 to load-127")
            }
            let card = TestCards.loadTestCards[index]
            let channel = try TestCardTapper.card(
                pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard, keyCount: 256)
            enter = { await interface.tap(channel) }
        default:
            let parts = name.split(separator: "-", maxSplits: 1).map(String.init)
            let scheme = TestCard.Scheme(rawValue: parts.count == 2 ? parts[1] : parts[0]) ?? .visa
            let behaviour =
                ["visa", "mastercard"].contains(parts[0]) ? .approve : TestCard.Behaviour(rawValue: parts[0])
            guard let behaviour else {
                throw ValidationError("--loopback \(name) is not visa, mastercard, wallet, a test behaviour or a .json")
            }
            let card = try Self.testCard(behaviour, scheme)
            let channel = try TestCardTapper.card(
                pan: card.pan, scheme: scheme == .visa ? .visa : .mastercard, keyCount: 256)
            enter = { await interface.tap(channel) }
        }
    }

    /// An approving Visa card of its own account (one of the last load-test cards): a card that shared the `visa`
    /// card's account would replay its ATCs, which the issuer refuses.
    private static func visaCard(_ card: TestCard) throws -> EmulatedCard {
        var profile = try CardProfile.visaTest
        profile.pan = card.pan
        return try profile.certified().personalize()
    }

    private static func testCard(_ behaviour: TestCard.Behaviour, _ scheme: TestCard.Scheme) throws -> TestCard {
        guard let card = TestCards.card(behaviour, scheme) else {
            throw ValidationError("there is no \(behaviour) test card for \(scheme)")
        }
        return card
    }

    func tap() async {
        guard interface.pendingTaps == 0 else { return }
        if delay > 0 { try? await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
        await enter()
    }
}
