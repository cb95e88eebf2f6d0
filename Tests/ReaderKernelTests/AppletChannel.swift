import EMV
import SmartCard

/// An in-test loopback: a card applet in an actor, answering each command in process. It can take the card out of
/// the field after a number of commands, and tamper with responses, to test what the kernel does then.
actor AppletChannel<Applet: CardApplet>: CardChannel {
    private(set) var applet: Applet
    private(set) var received: [CommandAPDU] = []
    /// The card leaves the field when the command with this index (0-based, counted over the channel's life) arrives.
    private var removal: Int?
    /// Rewrites responses before the kernel sees them.
    private let tamper: @Sendable (CommandAPDU, ResponseAPDU) -> ResponseAPDU

    init(
        _ applet: Applet, removingAt removal: Int? = nil,
        tamper: @escaping @Sendable (CommandAPDU, ResponseAPDU) -> ResponseAPDU = { $1 }
    ) {
        self.applet = applet
        self.removal = removal
        self.tamper = tamper
    }

    func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        defer { received.append(command) }
        if removal == received.count {
            applet.reset()
            throw SmartCardError(code: .cardRemoved, message: "the card left the field")
        }
        return tamper(command, applet.respond(to: command))
    }

    /// Changes the applet between transactions (the wallet unlocking the phone, a field reset).
    func update(_ change: @Sendable (inout Applet) -> Void) {
        change(&applet)
    }
}
