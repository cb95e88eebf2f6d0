import ArgumentParser

extension Tap {
    /// Groups the Apple Pay tools.
    struct ApplePayCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "applepay",
            abstract: "Apple Pay tools: payment requests and tokens.",
            subcommands: [ApplePayRequestCommand.self, ApplePayDecrypt.self]
        )
    }
}
