import ArgumentParser
import CardEmulator
import EMV
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import SmartCard
import ValueAddedServices

extension Tap {
    /// Serves a test card to PC/SC applications as a virtual smart card on vsmartcard's vpcd.
    struct Emulate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "emulate",
            abstract: "Be a payment card in vsmartcard's virtual reader, for any PC/SC application to read.",
            discussion: """
                Personalises a card profile and connects it to vpcd (the virtual reader driver of pcscd) at \
                --vpcd: pcscd then reports a card in the virtual reader, and pcsc_scan, emvtool or `tap read \
                --pcsc` read it like a real one. Power off and reset return the card to idle (the ATC and the \
                remaining keys persist); when pcscd restarts, the card reconnects. One line per connection or \
                power event goes to standard error, never card data; SIGINT or SIGTERM removes the card, prints \
                a summary (transactions served, last ATC) and exits 0.

                --pass adds a loyalty pass (a pass.json with an nfc dictionary, as Apple Wallet passes carry it):                 the card then also answers Apple's VAS application, OSE.VAS.01, like a phone whose wallet holds                 the pass beside the card, so a reader reads the pass and pays in one tap (`tap read --pcsc --vas`).

                Needs a pcscd whose reader.conf has a vpcd entry, e.g. for port 35963 (0x8C7B):
                  FRIENDLYNAME "Virtual PCD"
                  DEVICENAME   /dev/null:0x8C7B
                  LIBPATH      /usr/lib/pcsc/drivers/serial/libifdvpcd.so
                  CHANNELID    0x8C7B
                """
        )

        @Option(
            help: ArgumentHelp("vpcd's address (the DEVICENAME port of its reader.conf entry).", valueName: "host:port")
        )
        var vpcd = VPCDEndpoint.local.description
        @Option(
            help: ArgumentHelp(
                "The card: \(EmulatedCardSource.shippedNames.joined(separator: ", ")), or a card profile JSON file.",
                valueName: "profile"))
        var card: EmulatedCardSource = .visa
        @Option(help: ArgumentHelp("Answer to reset in hex (default 3B80800101: T=0 and T=1).", valueName: "hex"))
        var atr: String?
        @Option(
            help: ArgumentHelp(
                "The UID PC/SC's GET DATA (FF CA 00 00) reports, 4, 7 or 10 bytes in hex (default: random, 08…).",
                valueName: "hex"))
        var uid: String?
        @Flag(
            inversion: .prefixedNo,
            help: "Whether the wallet verified the cardholder on the phone (CDCVM), re-armed for each transaction.")
        var cdcvm = true
        @Flag(
            name: .customLong("lenient-pdol"), inversion: .prefixedNo,
            help: """
                Accept GET PROCESSING OPTIONS with empty PDOL data (83 00), as contact tools such as emvtool send; \
                readers that send the PDOL data are served the same either way.
                """)
        var lenientPDOL = true
        @Option(
            help: ArgumentHelp(
                "A loyalty pass to serve with Apple VAS (its pass.json); repeat for several.", valueName: "pass.json"))
        var pass: [String] = []
        @Option(help: "Limited-use keys (one per transaction) to personalise; the profile's count by default.")
        var keys: Int?
        @Flag(help: "Print the summary on exit as JSON.") var json = false

        func validate() throws {
            if let keys, !(1...60_000).contains(keys) { throw ValidationError("--keys must be from 1 to 60000") }
            _ = try endpoint()
            do {
                try VirtualCard<WalletApplet>.checkAnswerToReset(Self.answerToReset(atr))
                if let uid = try Self.uid(uid), ![4, 7, 10].contains(uid.count) {
                    throw VPCDError(code: .invalidUID, message: "--uid must be 4, 7 or 10 bytes")
                }
            } catch let error as VPCDError {
                throw ValidationError(error.message)
            }
        }

        /// `--vpcd` parsed.
        func endpoint() throws -> VPCDEndpoint { try Self.endpoint(parsing: vpcd) }

        /// A `--vpcd` value parsed; a validation error naming what is wrong otherwise.
        static func endpoint(parsing text: String) throws -> VPCDEndpoint {
            do {
                return try VPCDEndpoint(parsing: text)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() async throws {
            let endpoint = try endpoint()
            let answerToReset = try Self.answerToReset(atr)
            var profile = try card.profile()
            if let keys { profile.limitedUseKeys.count = keys }
            var emulated = try profile.personalize()
            emulated.acceptsEmptyPDOLData = lenientPDOL
            let keyCount = emulated.remainingKeyCount
            let passes = try pass.map(Self.loadPass)
            let applet = PassAndPaymentApplet(
                vas: passes.isEmpty ? nil : VASApplet(passes: passes, paymentReady: true, customerAuthenticated: cdcvm),
                payment: WalletApplet(card: emulated, cardholderVerifiedOnPhone: cdcvm))

            let link = try VirtualCardLink(
                applet: applet, endpoint: endpoint, answerToReset: answerToReset, uid: try Self.uid(uid)
            ) { event in
                if let line = Self.line(for: event) { Self.printError(line) }
            }
            Self.printError(
                "\(card) (\(emulated.scheme), \(keyCount) keys, ATR \(answerToReset.hexString))"
                    + (passes.isEmpty ? "" : " with \(passes.count) loyalty pass\(passes.count == 1 ? "" : "es")")
                    + " for vpcd at \(endpoint); SIGINT or SIGTERM to stop")
            var logger = Logger(label: "tap.emulate") { label in StreamLogHandler.standardError(label: label) }
            logger.logLevel = .warning
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [link], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()

            let summary = link.withCard { card in
                EmulateSummary(
                    transactions: card.applet.payment.transactionsServed,
                    lastATC: card.applet.payment.card.lastATC.map(Int.init),
                    keysRemaining: card.applet.payment.card.remainingKeyCount, commands: card.commandCount,
                    passesServed: card.applet.vas?.passesServed)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(summary), as: UTF8.self))
            } else {
                print(summary.text)
            }
        }

        /// A `--pass` file read.
        static func loadPass(_ path: String) throws -> VASPass {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw EmulateError("cannot read the pass '\(path)': \(error.localizedDescription)")
            }
            do {
                return try VASPass(passJSON: data)
            } catch {
                throw EmulateError("'\(path)' is not a pass VAS can serve: \(error.message)")
            }
        }

        /// The `--atr` bytes, spaces and colons allowed between digits.
        static func answerToReset(_ text: String?) throws -> [UInt8] {
            guard let text else { return VirtualCard<WalletApplet>.defaultAnswerToReset }
            let digits = text.filter { !$0.isWhitespace && $0 != ":" }
            guard let bytes = [UInt8](hex: digits) else {
                throw ValidationError("--atr must be hex bytes, e.g. 3B80800101")
            }
            return bytes
        }

        /// The `--uid` bytes, spaces and colons allowed between digits; nil without the option.
        static func uid(_ text: String?) throws -> [UInt8]? {
            guard let text else { return nil }
            guard let bytes = [UInt8](hex: text.filter { !$0.isWhitespace && $0 != ":" }) else {
                throw ValidationError("--uid must be hex bytes, e.g. 08A1B2C3")
            }
            return bytes
        }

        /// The line an event prints: nil for vpcd's ATR requests (its card-presence poll, several a second) and
        /// repeated connection failures (the first is printed, then one every 30 attempts).
        static func line(for event: VirtualCardEvent) -> String? {
            switch event {
            case .answerToResetSent: return nil
            case .connectionFailed(_, let attempt, _) where attempt != 1 && attempt % 30 != 0: return nil
            default: return event.description
            }
        }

        static func printError(_ line: String) {
            FileHandle.standardError.write(Data("tap emulate: \(line)\n".utf8))
        }
    }
}
