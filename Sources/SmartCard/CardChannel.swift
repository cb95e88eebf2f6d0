public import EMV

/// A link to a card in the field: sends one command APDU and waits for its response.
///
/// The reader kernel runs over any channel: the in-process loopback, a recorded trace, a vpcd virtual card or a
/// PC/SC reader. Implementations move bytes only; status words such as 6A82 are the caller's to interpret.
public protocol CardChannel: Sendable {
    /// Sends `command` to the card and returns its response.
    ///
    /// - Throws: ``SmartCardError`` when no response arrives: the card left the field, the link failed, or the
    ///   bytes received are not a response APDU.
    func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU
}
