import ArgumentParser
import CardEmulator
import Crypto
import EMV
import Foundation
import Issuer
import Logging
import ServiceLifecycle
import SmartCard
import TestMode
import UnixSignals
import Wallet

extension Tap {
    /// The issuer wallet SDK from the command line.
    struct WalletCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wallet",
            abstract: "A phone wallet (the Wallet SDK): digitize a test card and pay with it.",
            subcommands: [Pay.self]
        )
    }
}

extension Tap.WalletCommand {
    /// Digitizes a test card at the in-process issuer and pays with it through vpcd, session after session.
    struct Pay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pay",
            abstract: "Digitize a test card into a wallet and serve its payment sessions to pcscd through vpcd.",
            discussion: """
                Runs the issuer in process, digitizes the approving test card of --card (eligibility, Terms and \
                Conditions, one-time code) into a wallet, then runs ContactlessPaymentSessions one after another: \
                each authenticates the cardholder (always succeeds here), starts emulation and presents the wallet's \
                card in vpcd's virtual reader, where emvtool, `tap read --pcsc` or any PC/SC application reads it. \
                One line per session event goes to standard error. After --payments completed transactions (0: \
                until SIGINT or SIGTERM) it prints a summary and exits 0.

                --pass adds loyalty passes (pass.json files) to the wallet: each session serves them beside the card, \
                so `tap read --pcsc --vas` reads a pass and pays in one tap.
                """
        )

        @Option(help: ArgumentHelp("vpcd's address.", valueName: "host:port"))
        var vpcd = VPCDEndpoint.local.description
        @Option(help: "The test card to digitize: visa or mastercard.")
        var card = "visa"
        @Option(help: "Completed transactions to serve before exiting; 0 serves until SIGINT or SIGTERM.")
        var payments = 0
        @Option(
            help: ArgumentHelp("A loyalty pass (pass.json) to add to the wallet; repeatable.", valueName: "pass.json"))
        var pass: [String] = []
        @Flag(help: "Print the summary as JSON.") var json = false

        func validate() throws {
            guard ["visa", "mastercard"].contains(card) else { throw ValidationError("--card is visa or mastercard") }
            guard payments >= 0 else { throw ValidationError("--payments must be 0 or more") }
            _ = try endpoint()
        }

        func endpoint() throws -> VPCDEndpoint { try Tap.Emulate.endpoint(parsing: vpcd) }

        func run() async throws {
            let endpoint = try endpoint()
            let issuer = try TestWalletIssuer(clock: { Date() })
            let wallet = DigitalWallet(
                configuration: WalletConfiguration(
                    walletID: "tap-wallet", deviceID: "tap-device", issuer: issuer.walletService,
                    storage: InMemoryWalletStorage(), storageKey: SymmetricKey(size: .bits256),
                    device: .alwaysAuthenticated, authenticationValidity: 60))
            let digitalCard = try await Self.digitize(card, into: wallet, issuer: issuer)
            for path in pass { try await wallet.addPass(try Tap.Emulate.loadPass(path)) }
            Self.printError(
                "digitized \(digitalCard.details.scheme) \(digitalCard.details.maskedDPAN) "
                    + "(\(digitalCard.paymentKeyInfo.remainingKeys) payment keys)"
                    + (pass.isEmpty ? "" : " and \(pass.count) loyalty pass\(pass.count == 1 ? "" : "es")")
                    + "; vpcd at \(endpoint)")
            let field = CardEmulationField(acceptsEmptyPDOLData: true)
            let link = try VirtualCardLink(applet: field.applet, endpoint: endpoint) { event in
                field.handle(event)
                if let line = Tap.Emulate.line(for: event) { Self.printError(line) }
            }
            let payer = WalletPayer(wallet: wallet, field: field, payments: payments) { line in Self.printError(line) }
            var logger = Logger(label: "tap.wallet") { label in StreamLogHandler.standardError(label: label) }
            logger.logLevel = .warning
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [link, payer], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
            let summary = payer.summary
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(summary), as: UTF8.self))
            } else {
                print(
                    "wallet served \(summary.transactions) transactions in \(summary.sessions) sessions"
                        + (summary.errors.isEmpty ? "" : "; session errors: \(summary.errors.joined(separator: ", "))"))
            }
        }

        /// Eligibility, Terms and Conditions, the one-time code from the issuer's outbox.
        static func digitize(_ scheme: String, into wallet: DigitalWallet, issuer: TestWalletIssuer) async throws
            -> DigitalCard
        {
            guard let testCard = TestCards.card(.approve, scheme == "visa" ? .visa : .mastercard) else {
                throw ValidationError("no approving \(scheme) test card")
            }
            let service = wallet.cardDigitizationService
            let eligibility = try await service.checkEligibility(
                instrumentData: InstrumentData(
                    fundingPAN: try PAN(testCard.pan), expiry: try ExpiryDate(year: 2030, month: 12)))
            let pending = try await service.digitizeCard(
                withTNC: eligibility.termsAndConditions.accept(), eligibility: eligibility)
            guard let code = await issuer.outbox.lastCode(for: pending.digitizationID) else {
                throw ValidationError("the issuer sent no one-time code")
            }
            return try await service.verifyIdentity(pending, code: code)
        }

        static func printError(_ line: String) {
            FileHandle.standardError.write(Data("tap wallet: \(line)\n".utf8))
        }
    }
}
