public import EMV

/// The card applet of a ``CardEmulationField``: forwards each command to the card of the session presenting on the
/// field, which observes it to emit the session's events.
///
/// A handle rather than a value: copies (the loopback's, the vpcd link's) all reach the same field, since the card
/// belongs to the session, not to the transport.
public struct WalletCardApplet: CardApplet {
    let field: CardEmulationField

    /// Answers `command` with the presented card; 6A82 when no session presents one.
    public mutating func respond(to command: CommandAPDU) -> ResponseAPDU { field.respond(to: command) }

    /// The reader reset or powered down the card, or it left the field.
    public mutating func reset() { field.reset() }
}
