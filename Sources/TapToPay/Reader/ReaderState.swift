import Foundation

/// The reader's rules as a value: which session is live, whether the app is in the foreground, whether a prepare,
/// a read or a PIN capture runs. No I/O; ``ReaderCore`` drives it and it says, with Apple's errors, what is refused.
struct ReaderState: Sendable {
    /// Where the app is.
    enum ApplicationState: Sendable, Hashable {
        case active, background
    }

    private(set) var applicationState = ApplicationState.active
    private(set) var isPreparing = false
    /// The session reads may use; nil before the first prepare and after backgrounding.
    private(set) var liveSession: Int?
    /// Whether a read or PIN capture runs (one at a time).
    private(set) var isBusy = false
    /// Sessions that backgrounding ended: reading with them says "prepare again" (`notReady`).
    private var endedByBackground: Set<Int> = []
    private var lastSession = 0

    /// A prepare starts.
    mutating func beginPrepare() throws(PaymentCardReaderError) {
        guard applicationState == .active else {
            throw PaymentCardReaderError.backgroundRequestNotAllowed
        }
        guard !isPreparing, !isBusy else {
            throw PaymentCardReaderError.readerBusy
        }
        isPreparing = true
    }

    /// The prepare ended; when it succeeded, the id of the new session, which replaces any earlier one.
    mutating func endPrepare(succeeded: Bool) -> Int? {
        isPreparing = false
        guard succeeded else { return nil }
        lastSession += 1
        if applicationState == .background {
            // The app left while the prepare ran: the new session ended with it.
            endedByBackground.insert(lastSession)
        } else {
            liveSession = lastSession
        }
        return lastSession
    }

    /// A read or PIN capture on `session` starts at `now`, the session's credential expiring at `expiresAt`.
    mutating func beginOperation(session: Int, now: Date, expiresAt: Date) throws {
        guard applicationState == .active else {
            throw PaymentCardReaderSession.ReadError.readFromBackgroundError
        }
        guard !endedByBackground.contains(session) else {
            throw PaymentCardReaderError.notReady
        }
        guard session == liveSession, !isPreparing else {
            throw PaymentCardReaderSession.ReadError.noReaderSession
        }
        guard !isBusy else {
            throw PaymentCardReaderSession.ReadError.readerSessionBusy
        }
        guard now < expiresAt else {
            throw PaymentCardReaderSession.ReadError.readerSessionExpired
        }
        isBusy = true
    }

    /// The read or PIN capture ended.
    mutating func endOperation() { isBusy = false }

    /// The app went to the background: the live session ends. Returns whether a read or PIN capture was running
    /// (the caller interrupts it).
    mutating func enterBackground() -> Bool {
        applicationState = .background
        if let liveSession { endedByBackground.insert(liveSession) }
        liveSession = nil
        return isBusy
    }

    /// The app came back: reads need a new prepare.
    mutating func enterForeground() { applicationState = .active }
}
