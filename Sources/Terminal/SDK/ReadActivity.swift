import Foundation
import TapToPay

/// What the reader showed during the current read, noted from its events as they are emitted: whether the
/// cardholder finished a PIN entry inside the read (the card's CVM asked for online PIN, and the PIN block went
/// with the sealed card data). The receipt's CVM comes from it.
final class ReadActivity: @unchecked Sendable {
    // A lock, not an actor: the reader's observer is synchronous.
    private let lock = NSLock()
    private var pinRequested = false
    private var pinCompleted = false

    /// A read starts.
    func reset() {
        lock.withLock {
            pinRequested = false
            pinCompleted = false
        }
    }

    /// Notes `event`.
    func note(_ event: PaymentCardReader.Event) {
        lock.withLock {
            switch event {
            case .pinEntryRequested: pinRequested = true
            case .pinEntryCompleted where pinRequested: pinCompleted = true
            default: break
            }
        }
    }

    /// Whether a PIN entry completed since the read started.
    var pinEntered: Bool { lock.withLock { pinCompleted } }
}
