import ArgumentParser

/// The Contactless command line: the end-to-end demo, the crypto batch oracle interface, and the tools built on them.
@main
struct Tap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap",
        abstract: "Contactless: an open EMV contactless payment stack.",
        subcommands: [
            Demo.self, Emulate.self, Read.self, Readers.self, ReaderAgentCommand.self, CryptoCommand.self, ISO8583Command.self, Bench.self,
            MerchantCommand.self, IssuerCommand.self, Serve.self, ApplePayCommand.self, WalletCommand.self, Seal.self,
            KeysCommand.self, VASCommand.self,
        ]
    )
}
