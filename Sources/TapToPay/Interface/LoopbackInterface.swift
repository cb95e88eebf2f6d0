public import EMV
import Foundation
public import SmartCard

/// A contactless interface with cards in the same process: each ``tap(_:)`` (or ``present(_:)``) is one tap, taken
/// by the next wait for a card (taps before the wait queue up, in order). The PIN pad is a closure.
///
/// ```swift
/// let interface = LoopbackInterface { _ in .entered("1234") }
/// await interface.tap(LoopbackChannel(applet: card))
/// ```
public final class LoopbackInterface: ContactlessInterface, @unchecked Sendable {
    // A lock rather than an actor: a cancelled wait must be resumed from the synchronous cancellation handler.
    private let lock = NSLock()
    private var taps: [any CardChannel] = []
    private var waiter: (id: UInt64, continuation: CheckedContinuation<any CardChannel, any Error>)?
    private var nextWaiterID: UInt64 = 0
    private let pinPad: @Sendable (PINEntryRequest) async -> PINEntry

    /// Creates an interface with `pinPad` as the cardholder at the PIN pad (by default one who cancels).
    public init(pinPad: @escaping @Sendable (PINEntryRequest) async -> PINEntry = { _ in .cancelled }) {
        self.pinPad = pinPad
    }

    /// Taps the card behind `channel`: it enters the field (a card already there leaves and comes back, so its
    /// applet resets) and the reader's wait, now or next, gets it.
    public func tap<Applet: CardApplet>(_ channel: LoopbackChannel<Applet>) async {
        await channel.presentCard()
        present(channel as any CardChannel)
    }

    /// Puts any channel in the field as it is (no reset): the reader's wait, now or next, gets it.
    public func present(_ channel: any CardChannel) {
        let waiting: CheckedContinuation<any CardChannel, any Error>? = lock.withLock {
            guard let waiter else {
                taps.append(channel)
                return nil
            }
            self.waiter = nil
            return waiter.continuation
        }
        waiting?.resume(returning: channel)
    }

    /// How many taps wait for a reader.
    public var pendingTaps: Int { lock.withLock { taps.count } }

    /// The next tap; waits for one when none is queued.
    public func waitForCard() async throws -> any CardChannel {
        let id: UInt64 = lock.withLock {
            nextWaiterID += 1
            return nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let immediate: Result<any CardChannel, any Error>? = lock.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if !taps.isEmpty { return .success(taps.removeFirst()) }
                    waiter = (id, continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let cancelled: CheckedContinuation<any CardChannel, any Error>? = lock.withLock {
                guard let waiter, waiter.id == id else { return nil }
                self.waiter = nil
                return waiter.continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Asks the closure given at creation.
    public func enterPIN(_ request: PINEntryRequest) async -> PINEntry { await pinPad(request) }
}
