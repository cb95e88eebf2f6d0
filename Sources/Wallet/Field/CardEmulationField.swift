import EMV
import Foundation
public import SmartCard

/// The phone's NFC controller in host card emulation: what a reader in the field talks to.
///
/// A field has one ``applet`` for the phone's whole life; a ``ContactlessPaymentSession`` puts its card behind it
/// after the cardholder authenticated and takes it back when it ends. With no session presenting, the applet
/// answers every command with 6A82 (no application). Serve the applet with any `SmartCard` transport:
///
/// ```swift
/// let field = CardEmulationField()
/// let channel = LoopbackChannel(applet: field.applet)        // in process: a reader kernel reads it
/// let link = try VirtualCardLink(applet: field.applet, endpoint: endpoint) { event in
///     field.handle(event)                                      // vpcd: pcscd's readers read it
/// }
/// ```
public final class CardEmulationField: Sendable {
    private let slot = Slot()
    /// Whether cards presented here accept GET PROCESSING OPTIONS with empty PDOL data (`83 00`), as contact tools
    /// such as emvtool send it through PC/SC; contactless readers send the PDOL data and are served the same.
    public let acceptsEmptyPDOLData: Bool

    /// The phone's own field, which sessions made with ``ContactlessPaymentSession/init()`` present their cards on.
    public static let shared = CardEmulationField()

    /// Creates a field with no card presented.
    public init(acceptsEmptyPDOLData: Bool = false) {
        self.acceptsEmptyPDOLData = acceptsEmptyPDOLData
    }

    /// The card applet readers talk to: give it to a `LoopbackChannel` or a `VirtualCardLink`.
    public var applet: WalletCardApplet { WalletCardApplet(field: self) }

    /// The transport's link to the reader broke (a frame that is no APDU, a dropped connection): a transaction
    /// in progress ends with ``ContactlessPaymentSessionError/Code/transmissionError``.
    public func transportFailed(_ reason: String) {
        slot.current?.transportFailed(reason)
    }

    /// The system ended the card session (the app went to the background): the presenting session ends with
    /// ``ContactlessPaymentSessionError/Code/sessionInvalidated``.
    public func invalidate() {
        slot.current?.fail(
            ContactlessPaymentSessionError(.sessionInvalidated, "the system invalidated the card session"))
    }

    /// What a vpcd link reports, as the field sees it: a dropped connection or a frame that is no APDU is a
    /// transport failure. Pass it the `VirtualCardLink`'s events.
    public func handle(_ event: VirtualCardEvent) {
        switch event {
        case .disconnected(let error): transportFailed("the reader's link closed: \(error.message)")
        case .frameRejected(let error) where error.code == .malformedCommand:
            transportFailed("the reader sent a frame that is not an APDU")
        default: break
        }
    }

    // MARK: - Sessions

    /// Puts a session's card in the field; while the previous card is still finishing with the reader (records
    /// read after the cryptogram), the new one waits for the reader to let go.
    func present(_ core: SessionCore) { slot.present(core) }

    /// Takes a session's card back; a card that completed its transaction stays until the reader lets go.
    func withdraw(_ core: SessionCore) { slot.withdraw(core) }

    func respond(to command: CommandAPDU) -> ResponseAPDU {
        guard let core = slot.current else { return ResponseAPDU(statusWord: .fileNotFound) }
        return core.respond(to: command)
    }

    func reset() {
        guard let core = slot.current else { return }
        core.reset()
        slot.readerLeft()
    }

    /// The presenting session's card (and the next one, waiting), behind a lock: transports call from their own
    /// threads.
    private final class Slot: @unchecked Sendable {
        private let lock = NSLock()
        private var core: SessionCore?
        private var next: SessionCore?

        var current: SessionCore? { lock.withLock { core } }

        func present(_ new: SessionCore) {
            lock.withLock {
                if let core, core.holdsReader { next = new } else { core = new }
            }
        }

        func withdraw(_ old: SessionCore) {
            lock.withLock {
                if next === old { next = nil }
                guard core === old, !old.holdsReader else { return }
                core = next
                next = nil
            }
        }

        /// The reader reset or left: a card whose session ended gives way to the waiting one.
        func readerLeft() {
            lock.withLock {
                guard let core, core.hasEnded else { return }
                self.core = next
                next = nil
            }
        }
    }
}
