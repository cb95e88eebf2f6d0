public import SmartCard

/// The phone's contactless interface and screen, as the reader uses them: wait for a card in the field, and ask the
/// cardholder for a PIN.
///
/// ``LoopbackInterface`` serves an in-process card (tests, demos); ``PCSCInterface`` a PC/SC reader.
public protocol ContactlessInterface: Sendable {
    /// Turns the field on and waits for a card; returns the channel to it.
    ///
    /// Must end promptly with `CancellationError` when the calling task is cancelled (`cancelRead()`, the app going
    /// to the background).
    func waitForCard() async throws -> any CardChannel

    /// Shows the PIN pad for `request` and returns what the cardholder did.
    func enterPIN(_ request: PINEntryRequest) async -> PINEntry
}
