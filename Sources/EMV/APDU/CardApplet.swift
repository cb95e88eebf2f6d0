/// Something that answers command APDUs the way a card does: a payment applet, a recorded card, a test double.
///
/// State lives in the value (ATC, selected application, transaction progress), so an applet is copied, compared and
/// tested without I/O. Transports in `SmartCard` (the in-process loopback, the vpcd virtual-card link) drive one.
public protocol CardApplet: Sendable {
    /// Processes one command and returns the card's answer; errors are status words, never thrown.
    mutating func respond(to command: CommandAPDU) -> ResponseAPDU

    /// Returns the applet to its power-on state (the card left the field, or the reader reset it).
    ///
    /// Persistent data such as the ATC and the remaining keys survives; the selected application and any transaction
    /// in progress do not.
    mutating func reset()
}
