import ArgumentParser
import CardEmulator
import EMV
import Foundation
import Gateway
import Hummingbird
import Logging
import TestMode

extension Tap {
    /// Runs the gateway: the PSP's HTTP API with the issuer host in the same process (or a separate one).
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Run the gateway (the PSP's HTTP API) with the issuer host in the same process.",
            discussion: """
                Keeps a SQLite database and the key file (keys.json, mode 0600, generated on first start) under \
                --data-dir; --database postgres://… uses PostgreSQL instead. The issuer host runs in process with \
                the test cards' accounts (docs/issuer-test-cards.md) unless --issuer points at a `tap issuer` \
                over ISO 8583 on TCP. SIGTERM or SIGINT: stop accepting, finish in-flight requests, close the \
                database, exit 0. After a crash (kill -9, power loss) the restarted gateway fails and reverses the \
                payments the crash left in flight once they are --recover-after seconds old. Logs go to standard \
                error and never hold card data.
                """)

        @Option(help: "The address to listen on.") var host = "127.0.0.1"
        @Option(help: "The port to listen on (0: any free port, printed at start).") var port = 8080
        @Option(name: .customLong("data-dir"), help: "Where the SQLite database and the key file live.")
        var dataDirectory = ".tap"
        @Option(help: ArgumentHelp("PostgreSQL instead of SQLite.", valueName: "postgres://user@host:port/db"))
        var database: String?
        @Option(help: ArgumentHelp("A separate issuer host (`tap issuer`).", valueName: "host:port"))
        var issuer: String?
        @Option(
            help: ArgumentHelp(
                "The PIN key agreed with the --issuer host, as hex (16 or 32 bytes); without it, `tap issuer`'s test key.",
                valueName: "file"))
        var issuerPINKey: String?
        @Option(
            help: ArgumentHelp(
                "The CA public keys readers authenticate cards with (a CA public key list, JSON); without it, the "
                    + "test CA keys, which authenticate only test cards.", valueName: "file"))
        var caKeys: String?
        @Option(help: "Seconds to wait for the issuer's answer before reversing.") var issuerTimeout = 2.0
        @Option(
            help: ArgumentHelp(
                "Seconds after which a payment a previous run left in flight is failed and reversed (default: the "
                    + "issuer timeout + 30). A lone node may use 0; nodes sharing a database need more than the "
                    + "issuer timeout.", valueName: "seconds"))
        var recoverAfter: Double?
        @Option(
            name: .customLong("max-body-size"),
            help: ArgumentHelp(
                "The largest request body accepted; a larger one gets 413 payloadTooLarge.", valueName: "bytes"))
        var maxBodySize = GatewayConfiguration.defaultMaxRequestBodySize
        @Option(
            name: .customLong("idempotency-retention"),
            help: ArgumentHelp(
                "How long an Idempotency-Key and its answer are kept; older keys are deleted.", valueName: "hours"))
        var idempotencyRetention = 24.0
        @Flag(help: "Mark the console's cookies Secure: clients reach this gateway over TLS (a proxy in front).")
        var secureCookies = false
        @Flag(help: "Let webhook endpoints be on this machine or a private network (local development and tests).")
        var allowLocalWebhooks = false
        @Flag(
            help: ArgumentHelp(
                "Let the point of sale start a virtual reader: a reader in this process with test cards, whose "
                    + "tap screen picks the card the customer taps (demos need nothing but this and a browser)."))
        var virtualReader = false
        @Option(
            help: ArgumentHelp(
                "An SMTP relay the point of sale e-mails receipts through (plain SMTP: a local or internal relay).",
                valueName: "host:port"))
        var smtp: String?
        @Option(help: ArgumentHelp("The sender of e-mailed receipts.", valueName: "address"))
        var smtpFrom = "receipts@contactless.invalid"
        @Option(
            name: .customLong("reader-timeout"),
            help: ArgumentHelp(
                "How long a server-driven reader (`tap reader`) may go without asking for work before it counts as "
                    + "disconnected and its command fails (1 to 300).", valueName: "seconds"))
        var readerTimeout = 30.0
        @Option(
            name: .customLong("console-idle-timeout"),
            help: ArgumentHelp(
                "How long a console session lasts without a request (0.05, three seconds, to 720).",
                valueName: "minutes"))
        var consoleIdleTimeout = ConsoleAccounts.defaultIdleTimeout / 60

        func validate() throws {
            if issuerPINKey != nil, issuer == nil {
                throw ValidationError("--issuer-pin-key is the key agreed with an --issuer host; give --issuer too")
            }
            if let recoverAfter, !(0...86_400).contains(recoverAfter) {
                throw ValidationError("--recover-after must be from 0 to 86400 seconds")
            }
            guard (1.0 / 60...24 * 30).contains(idempotencyRetention) else {
                throw ValidationError("--idempotency-retention must be from one minute (0.0167) to 720 hours")
            }
            if let smtp, smtp.split(separator: ":").count != 2 || Int(smtp.split(separator: ":").last ?? "") == nil {
                throw ValidationError("--smtp takes host:port")
            }
            guard (1...300).contains(readerTimeout) else {
                throw ValidationError("--reader-timeout must be from 1 to 300 seconds")
            }
            guard (0.05...720).contains(consoleIdleTimeout) else {
                throw ValidationError("--console-idle-timeout must be from 0.05 (three seconds) to 720 minutes")
            }
            guard (1024...(16 << 20)).contains(maxBodySize) else {
                throw ValidationError("--max-body-size must be from 1024 to 16777216 bytes")
            }
        }

        func run() async throws {
            var logger = Logger(label: "tap.serve")
            logger.logLevel = .info
            var configuration = GatewayConfiguration(
                hostname: host, port: port, dataDirectory: URL(fileURLWithPath: dataDirectory), databaseURL: database,
                issuer: .testIssuer, issuerTimeout: .milliseconds(Int(issuerTimeout * 1000)),
                recoverAfter: recoverAfter.map { .milliseconds(Int($0 * 1000)) },
                caPublicKeys: try caPublicKeys(logger: logger))
            configuration.maxRequestBodySize = maxBodySize
            configuration.idempotencyRetention = idempotencyRetention * 3600
            configuration.secureCookies = secureCookies
            configuration.allowsLocalWebhooks = allowLocalWebhooks
            configuration.consoleIdleTimeout = consoleIdleTimeout * 60
            configuration.readerTimeout = readerTimeout
            if let smtp, let port = Int(smtp.split(separator: ":")[1]) {
                configuration.smtp = SMTPConfiguration(
                    host: String(smtp.split(separator: ":")[0]), port: port, from: smtpFrom)
            }
            if let issuer {
                let parts = issuer.split(separator: ":")
                guard parts.count == 2, let issuerPort = Int(parts[1]) else {
                    throw ValidationError("--issuer takes host:port")
                }
                if let issuerPINKey {
                    guard let key = try? String(contentsOfFile: issuerPINKey, encoding: .utf8),
                        let bytes = [UInt8](hex: key.trimmingCharacters(in: .whitespacesAndNewlines)),
                        bytes.count == 16 || bytes.count == 32
                    else { throw ValidationError("--issuer-pin-key must name a file holding 16 or 32 bytes as hex") }
                    configuration.issuer = .tcp(host: String(parts[0]), port: issuerPort, pinEncryptionKey: bytes)
                } else {
                    logger.notice(
                        "issuer \(issuer) is taken to be `tap issuer`: PIN blocks go to it under the test PIN key")
                    configuration.issuer = .testIssuer(host: String(parts[0]), port: issuerPort)
                }
            } else {
                logger.notice("the test issuer runs in process with the test cards and test keys (the demo default)")
            }
            let host = self.host
            let port = self.port
            let listening = ListeningAddress()
            if virtualReader {
                let logger = logger
                configuration.virtualReaderLauncher = { readerId, _, token, cards in
                    try await VirtualReader.start(
                        readerId: readerId, baseURL: await listening.baseURL(), token: token, cards: cards,
                        logger: logger)
                }
            }
            let gateway = try await GatewayApplication.build(configuration: configuration, logger: logger) { channel in
                let address = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(channel.localAddress?.port ?? port)"
                await listening.set(address)
                // Scripts wait for this line (with --port 0 it says which port was taken).
                let line = "tap serve: listening on http://\(host):\(channel.localAddress?.port ?? port)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
            try await gateway.application.runService()
        }

        /// The keys of `--ca-keys`, or the test CA keys, said at start-up.
        private func caPublicKeys(logger: Logger) throws -> CAPublicKeyList {
            guard let caKeys else {
                logger.notice("readers get the test CA keys: only test cards pass offline data authentication")
                return try CardProfile.testCAPublicKeys
            }
            return try CAPublicKeyList(contentsOf: URL(fileURLWithPath: caKeys))
        }
    }
}
