import ArgumentParser
import Foundation
import Gateway

extension Tap {
    /// The gateway's keys.
    struct KeysCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Manage the gateway's keys.",
            subcommands: [RotateDataKey.self]
        )
    }
}

extension Tap.KeysCommand {
    /// Rotates the data key that seals data at rest, while gateways keep serving.
    struct RotateDataKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-data-key",
            abstract: "Make a new data key current and seal everything sealed at rest again under it.",
            discussion: """
                Run it beside running gateways (same --data-dir key file, same --database): it stores a new data \
                key, wrapped by the key file's key, current after --activation-delay seconds (every gateway loads \
                it within a second, and switches to it at that time); after --settle seconds more (longer than any \
                request runs) opens every PIN key, reversal message, pending \
                card data and Apple Pay private key sealed under an older key and seals it again under the new one; \
                then deletes the older data keys. Nothing stops serving. The key file's own key only wraps data \
                keys and is not rotated here.
                """)

        @OptionGroup var store: GatewayStoreOptions
        @Option(help: "Seconds before the new key becomes current (more than the gateways' 1 s refresh).")
        var activationDelay = 5.0
        @Option(help: "Seconds after that before sealing again (more than the longest request: the issuer timeout).")
        var settle = 10.0

        func validate() throws {
            guard (2...3_600).contains(activationDelay) else {
                throw ValidationError("--activation-delay must be from 2 to 3600 seconds")
            }
            guard (0...3_600).contains(settle) else { throw ValidationError("--settle must be from 0 to 3600 seconds") }
        }

        func run() async throws {
            let keys = try GatewayKeys.load(
                from: URL(fileURLWithPath: store.dataDir, isDirectory: true).appendingPathComponent(
                    GatewayKeys.fileName))
            let delay = Duration.milliseconds(Int(activationDelay * 1000))
            let settle = Duration.milliseconds(Int(self.settle * 1000))
            let json = store.json
            let report = try await store.withDatabase { database in
                try await DataKeyRotation(database: database, keys: keys, activationDelay: delay, settle: settle).run {
                    line in
                    if !json { print("tap keys rotate-data-key: \(line)") }
                }
            }
            if json { try store.printJSON(report) }
        }
    }
}
