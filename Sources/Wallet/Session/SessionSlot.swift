import Foundation

/// The one payment session a wallet may run at a time.
final class SessionSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var holder: ObjectIdentifier?

    /// Takes the slot for `session`; false when another session holds it.
    func claim(_ session: ObjectIdentifier) -> Bool {
        lock.withLock {
            guard holder == nil || holder == session else { return false }
            holder = session
            return true
        }
    }

    /// Gives the slot back, if `session` holds it.
    func release(_ session: ObjectIdentifier) {
        lock.withLock { if holder == session { holder = nil } }
    }
}
