public import EMV
public import SmartCard

/// One command sent to the card and what came back: a response or a transport error.
public struct APDUExchange: Sendable, Hashable, CustomStringConvertible {
    /// The command.
    public var command: CommandAPDU
    /// The response, when one arrived.
    public var response: ResponseAPDU?
    /// The transport error, when none did.
    public var error: SmartCardError?

    /// Creates an exchange.
    public init(command: CommandAPDU, response: ResponseAPDU?, error: SmartCardError? = nil) {
        self.command = command
        self.response = response
        self.error = error
    }

    /// Header and sizes only (command data may hold PIN blocks, responses card data).
    public var description: String {
        "\(command) -> " + (response?.description ?? error.map { "\($0.code)" } ?? "no response")
    }
}
