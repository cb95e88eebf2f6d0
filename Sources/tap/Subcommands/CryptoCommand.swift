import ArgumentParser

extension Tap {
    /// Groups the cryptography tools.
    struct CryptoCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "crypto",
            abstract: "EMV cryptography tools.",
            subcommands: [CryptoBatchCommand.self]
        )
    }
}
