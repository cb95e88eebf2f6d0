import Foundation

extension SimulatedWallet {
    /// The wallet of the device this process plays, which PassKit's class-level questions answer from:
    /// ``PaymentAuthorizationController/canMakePayments()`` and its network variants, and the sheets made with
    /// ``PaymentAuthorizationController/init(paymentRequest:delegate:tokenMaker:)``.
    ///
    /// Process-wide, like the phone's own Wallet; set it once at start-up (a demo, a test suite run serialized).
    /// Until set, a device that supports Apple Pay with no card in its wallet.
    public static var current: SimulatedWallet {
        get { currentWallet.withLock { $0 } }
        set { currentWallet.withLock { $0 = newValue } }
    }

    private static let currentWallet = LockedValue(SimulatedWallet(deviceSupportsApplePay: true, cards: []))
}

/// A value behind a lock, for process-wide state read from any thread.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
