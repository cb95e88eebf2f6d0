import ArgumentParser
import Foundation
import Issuer
import Logging
import ServiceLifecycle
import UnixSignals

extension Tap {
    /// Runs the test issuer host alone, for `tap serve --issuer HOST:PORT` to authorize against over TCP.
    struct IssuerCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "issuer",
            abstract: "Run the test issuer host: ISO 8583 over TCP (2-byte length prefix) with the test card accounts.",
            discussion: """
                Answers 0100 authorization and 0400 reversal requests for the test cards and the load-test cards \
                (see the Issuer module's documentation for their PANs and outcomes; the issuer-timeout cards get no \
                answer), with the test issuer keys. Accounts live in memory: a restart restores every balance. \
                Prints the listening address on start; SIGINT or SIGTERM stops accepting, answers the requests \
                already read, and exits 0. Logs (standard error) never show card data.
                """
        )

        @Option(help: "The TCP port; 0 picks a free one (printed on start).") var port: Int
        @Option(help: "The address to listen on.") var host = "127.0.0.1"
        @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "notice"

        func validate() throws {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
            guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level") }
        }

        func run() async throws {
            var logger = Logger(label: "tap.issuer") { label in StreamLogHandler.standardError(label: label) }
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .notice
            let keys = try IssuerKeys.test
            let repository = InMemoryIssuerRepository()
            try await TestCards.seed(repository, keys: keys)
            let server = IssuerServer(
                issuer: IssuerHost(keys: keys, repository: repository),
                configuration: IssuerServer.Configuration(host: host, port: port), logger: logger)
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let boundPort = try await server.port
                // Unbuffered, so a script reading the pipe sees the address at once.
                FileHandle.standardOutput.write(Data("tap issuer: listening on \(host):\(boundPort)\n".utf8))
                try await tasks.waitForAll()
            }
        }
    }
}
