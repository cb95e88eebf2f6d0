import Foundation
import NIOCore

/// The address a server bound, awaited by callers that started it with port 0; set once.
final class BoundAddress: @unchecked Sendable {
    private enum State {
        case waiting([CheckedContinuation<SocketAddress, any Error>])
        case done(Result<SocketAddress, any Error>)
    }

    // Guards `state`; continuations are resumed outside it.
    private let lock = NSLock()
    private var state = State.waiting([])

    /// The address, waiting until the server has bound or failed.
    func value() async throws -> SocketAddress {
        try await withCheckedThrowingContinuation { continuation in
            lock.lock()
            switch state {
            case .waiting(let waiters):
                state = .waiting(waiters + [continuation])
                lock.unlock()
            case .done(let result):
                lock.unlock()
                continuation.resume(with: result)
            }
        }
    }

    /// Records the bound address and wakes the waiters.
    func succeed(_ address: SocketAddress) { complete(.success(address)) }

    /// Records the binding error and wakes the waiters.
    func fail(_ error: any Error) { complete(.failure(error)) }

    private func complete(_ result: Result<SocketAddress, any Error>) {
        lock.lock()
        guard case .waiting(let waiters) = state else {
            lock.unlock()
            return
        }
        state = .done(result)
        lock.unlock()
        for waiter in waiters { waiter.resume(with: result) }
    }
}
