import Foundation
import ISO8583
import NIOCore

/// The shared state of a ``TCPIssuerLink``: its open connections and the requests waiting for an answer, each a
/// promise keyed by the response it waits for.
///
/// Every transition happens under one lock and no I/O happens under it; promises are completed after unlocking.
/// Every registered promise is completed exactly once: by its response, its timeout, the loss of its connection,
/// cancellation, or shutdown.
final class PendingRequests: @unchecked Sendable {
    typealias Writer = NIOAsyncChannelOutboundWriter<ByteBuffer>

    private struct Pending {
        let id: Int
        let promise: EventLoopPromise<ISO8583Message>
        /// The frame, kept until a connection takes it; nil once written.
        var unsent: ByteBuffer?
        /// The connection the frame went out on.
        var connection: Int?
        var timeout: Scheduled<Void>?
    }

    /// What ``register(_:frame:eventLoop:)`` decided.
    enum Registration {
        /// Registered; write the frame with the writer, or wait for a connection to write it when nil.
        case registered(id: Int, promise: EventLoopPromise<ISO8583Message>, writer: Writer?)
        /// Refused: a request with the same key is in flight, or the link is shutting down.
        case refused(IssuerLinkError)
    }

    private let lock = NSLock()
    private var pending: [ResponseKey: Pending] = [:]
    private var connections: [(id: Int, writer: Writer)] = []
    private var nextConnection = 0
    private var nextID = 0
    private var draining = false
    private var drainWaiter: CheckedContinuation<Void, Never>?

    /// Registers a request waiting for `key` and picks a connection for it (round robin), if one is open.
    func register(_ key: ResponseKey, frame: ByteBuffer, eventLoop: any EventLoop) -> Registration {
        lock.lock()
        defer { lock.unlock() }
        guard !draining else {
            return .refused(IssuerLinkError(code: .unavailable, message: "the issuer link is shutting down"))
        }
        guard pending[key] == nil else {
            return .refused(IssuerLinkError(code: .invalidRequest, message: "a request for \(key) is in flight already"))
        }
        nextID += 1
        let promise = eventLoop.makePromise(of: ISO8583Message.self)
        var entry = Pending(id: nextID, promise: promise, unsent: frame)
        var writer: Writer?
        if !connections.isEmpty {
            let connection = connections[nextConnection % connections.count]
            nextConnection &+= 1
            entry.unsent = nil
            entry.connection = connection.id
            writer = connection.writer
        }
        pending[key] = entry
        return .registered(id: nextID, promise: promise, writer: writer)
    }

    /// Keeps the timeout task of a registered request, to cancel it when the answer comes first.
    func setTimeout(_ timeout: Scheduled<Void>, for key: ResponseKey, id: Int) {
        lock.lock()
        if pending[key]?.id == id {
            pending[key]?.timeout = timeout
            lock.unlock()
        } else {
            lock.unlock()
            timeout.cancel()
        }
    }

    /// Completes the request waiting for the response's key; false when none waits (late or unknown).
    func complete(_ key: ResponseKey, with response: ISO8583Message) -> Bool {
        guard let entry = remove(key, id: nil) else { return false }
        entry.timeout?.cancel()
        entry.promise.succeed(response)
        return true
    }

    /// Fails the request `id` waiting for `key` with `error`, if it still waits.
    func fail(_ key: ResponseKey, id: Int, with error: IssuerLinkError) {
        guard let entry = remove(key, id: id) else { return }
        entry.timeout?.cancel()
        entry.promise.fail(error)
    }

    /// Fails the request `id` at its deadline: `timedOut` when it was written, `unavailable` when no connection
    /// took it.
    func expire(_ key: ResponseKey, id: Int, after timeout: Duration) {
        guard let entry = remove(key, id: id) else { return }
        entry.promise.fail(
            entry.connection == nil
                ? IssuerLinkError(code: .unavailable, message: "no connection to the issuer within \(timeout)")
                : IssuerLinkError(code: .timedOut, message: "no answer from the issuer within \(timeout)"))
    }

    /// Adds an open connection; returns the frames of the requests that waited for one, now assigned to it.
    func connectionOpened(_ id: Int, writer: Writer) -> [ByteBuffer] {
        lock.lock()
        defer { lock.unlock() }
        connections.append((id, writer))
        var frames: [ByteBuffer] = []
        for (key, entry) in pending {
            guard let frame = entry.unsent else { continue }
            frames.append(frame)
            pending[key]?.unsent = nil
            pending[key]?.connection = id
        }
        return frames
    }

    /// Removes a closed connection and fails the requests written on it with `unavailable`.
    func connectionClosed(_ id: Int) {
        failAll(
            IssuerLinkError(code: .unavailable, message: "the connection to the issuer was lost"),
            where: { $0.connection == id }, first: { connections.removeAll { $0.id == id } })
    }

    /// Refuses new requests from now on and fails those still waiting for a connection.
    func beginDraining() {
        failAll(
            IssuerLinkError(code: .unavailable, message: "the issuer link is shutting down"),
            where: { $0.connection == nil }, first: { draining = true })
    }

    /// Runs `first` and removes the entries matching `condition` under the lock, then fails them with `error`.
    private func failAll(_ error: IssuerLinkError, where condition: (Pending) -> Bool, first: () -> Void) {
        lock.lock()
        first()
        let failed = pending.filter { condition($0.value) }
        for key in failed.keys { pending[key] = nil }
        let waiter = drainedWaiter()
        lock.unlock()
        for entry in failed.values {
            entry.timeout?.cancel()
            entry.promise.fail(error)
        }
        waiter?.resume()
    }

    /// Returns once draining has begun and no request waits any more, or when the task is cancelled.
    func drained() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if (draining && pending.isEmpty) || Task.isCancelled {
                    lock.unlock()
                    continuation.resume()
                } else {
                    drainWaiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiter = drainWaiter
            drainWaiter = nil
            lock.unlock()
            waiter?.resume()
        }
    }

    /// The number of requests waiting for an answer or a connection.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count
    }

    /// A fresh connection id.
    func makeConnectionID() -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        return nextID
    }

    /// Removes the entry for `key` (only if its id is `id`, when given). Takes the lock.
    private func remove(_ key: ResponseKey, id: Int?) -> Pending? {
        lock.lock()
        guard let entry = pending[key], id == nil || entry.id == id else {
            lock.unlock()
            return nil
        }
        pending[key] = nil
        let waiter = drainedWaiter()
        lock.unlock()
        waiter?.resume()
        return entry
    }

    /// The drain waiter to resume once draining with nothing pending; call under the lock.
    private func drainedWaiter() -> CheckedContinuation<Void, Never>? {
        guard draining, pending.isEmpty, let waiter = drainWaiter else { return nil }
        drainWaiter = nil
        return waiter
    }
}
