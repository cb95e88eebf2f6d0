import CardEmulator
import EMV
public import Foundation
public import SmartCard
public import ValueAddedServices

/// The phone's NFC controller in host card emulation: what a reader in the field talks to.
///
/// A field has one ``applet`` for the phone's whole life; a ``ContactlessPaymentSession`` puts its card behind it
/// after the cardholder authenticated and takes it back when it ends. With no session presenting, the applet
/// answers every command with 6A82 (no application). Beside the card, the field serves the wallet's loyalty passes
/// (``servePasses(_:)``) to readers that select Apple's VAS application, in the same tap as the payment; a pass that
/// requires authentication is given only while a session presents (the cardholder authenticated for it). Serve the
/// applet with any `SmartCard` transport:
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
    private let phone: PhoneApplets
    /// Whether cards presented here accept GET PROCESSING OPTIONS with empty PDOL data (`83 00`), as contact tools
    /// such as emvtool send it through PC/SC; contactless readers send the PDOL data and are served the same.
    public let acceptsEmptyPDOLData: Bool

    /// The phone's own field, which sessions made with ``ContactlessPaymentSession/init()`` present their cards on.
    public static let shared = CardEmulationField()

    /// Creates a field with no card presented.
    public init(acceptsEmptyPDOLData: Bool = false) {
        self.acceptsEmptyPDOLData = acceptsEmptyPDOLData
        phone = PhoneApplets(slot: slot)
    }

    /// The loyalty passes readers may read here, in place of any served before, their cryptograms stamped with
    /// `clock`'s time (``DigitalWallet/servePasses(on:)`` serves the wallet's, on its clock).
    public func servePasses(_ passes: [VASPass], clock: @escaping @Sendable () -> Date = { Date() }) {
        phone.setPasses(passes, clock: clock)
    }

    /// The passes served now.
    public var servedPasses: [VASPass] { phone.passes }

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

    func respond(to command: CommandAPDU) -> ResponseAPDU { phone.respond(to: command) }

    func reset() { phone.reset() }

    /// The phone's two applications behind one lock: the VAS applet and the presenting session's card, routed by
    /// SELECT.
    private final class PhoneApplets: @unchecked Sendable {
        private let lock = NSLock()
        private var applets: PassAndPaymentApplet<PresentedCard>

        init(slot: Slot) {
            applets = PassAndPaymentApplet(vas: VASApplet(passes: []), payment: PresentedCard(slot: slot))
        }

        var passes: [VASPass] { lock.withLock { applets.vas?.passes ?? [] } }

        func setPasses(_ passes: [VASPass], clock: @escaping @Sendable () -> Date) {
            lock.withLock {
                applets.vas?.passes = passes
                applets.vas?.environment.now = clock
            }
        }

        func respond(to command: CommandAPDU) -> ResponseAPDU {
            lock.withLock {
                let presenting = applets.payment.slot.current != nil
                applets.vas?.paymentReady = presenting
                applets.vas?.customerAuthenticated = presenting
                return applets.respond(to: command)
            }
        }

        func reset() { lock.withLock { applets.reset() } }
    }

    /// The card of the session presenting on the field, as an applet.
    private struct PresentedCard: CardApplet {
        let slot: Slot

        func respond(to command: CommandAPDU) -> ResponseAPDU {
            guard let core = slot.current else { return ResponseAPDU(statusWord: .fileNotFound) }
            return core.respond(to: command)
        }

        func reset() {
            guard let core = slot.current else { return }
            core.reset()
            slot.readerLeft()
        }
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
