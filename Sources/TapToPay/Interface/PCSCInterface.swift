public import SmartCard

/// A contactless interface on a PC/SC reader (a USB NFC reader through pcscd, or vpcd's virtual one): the Linux
/// counterpart of the phone's NFC controller. libpcsclite is loaded at run time, so building needs nothing.
///
/// Each wait connects to the next card present in the reader; a card left in the field is read again, so the
/// cardholder removes it when the reader shows ``PaymentCardReader/Event/removeCard``.
public final class PCSCInterface: ContactlessInterface {
    private let context: PCSCContext
    private let readerName: String?
    private let pinPad: @Sendable (PINEntryRequest) async -> PINEntry

    /// Opens a PC/SC context; waits use `readerName` (any reader when nil).
    /// - Throws: ``SmartCard/SmartCardError`` when libpcsclite or pcscd is not available.
    public init(
        readerName: String? = nil,
        pinPad: @escaping @Sendable (PINEntryRequest) async -> PINEntry = { _ in .cancelled }
    ) throws(SmartCardError) {
        context = try PCSCContext()
        self.readerName = readerName
        self.pinPad = pinPad
    }

    /// Waits for a card and connects to it. PC/SC waits block a thread; a cancelled task cancels the wait.
    public func waitForCard() async throws -> any CardChannel {
        let context = self.context
        let readerName = self.readerName
        return try await withTaskCancellationHandler {
            while true {
                try Task.checkCancellation()
                do throws(SmartCardError) {
                    // Short waits, so cancellation is also noticed between them.
                    let state = try context.waitForCard(reader: readerName, timeout: .milliseconds(500))
                    return try context.connect(reader: state.readerName)
                } catch {
                    if error.code == .cancelled { throw CancellationError() }
                    // No card yet, or it left before the connect: wait on.
                    guard error.code == .timedOut || error.code == .cardRemoved else { throw error }
                }
            }
        } onCancel: {
            context.cancel()
        }
    }

    /// Asks the closure given at creation.
    public func enterPIN(_ request: PINEntryRequest) async -> PINEntry { await pinPad(request) }
}
