import Foundation

extension PaymentCardReader {
    /// The reader's events from the moment it is made, in order, as an async sequence.
    ///
    /// Every access to ``PaymentCardReader/events`` makes a new one, so an app can run a loop per operation, as
    /// Apple's sample code does (one for prepare's progress, one per read, one per PIN capture), several at once:
    /// each loop sees every event emitted after it was made; ending or cancelling one ends only that one. Events
    /// wait in the sequence's buffer until read.
    public struct Events: AsyncSequence, Sendable {
        /// An event.
        public typealias Element = Event
        /// Events never fail.
        public typealias Failure = Never

        private let stream: AsyncStream<Event>

        fileprivate init(stream: AsyncStream<Event>) { self.stream = stream }

        /// A sequence and the continuation that feeds it: a way to make a testing stream.
        public static func makeStream() -> (events: Events, continuation: AsyncStream<Event>.Continuation) {
            let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
            return (Events(stream: stream), continuation)
        }

        /// Creates an iterator.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }

        /// Iterates the events.
        public struct AsyncIterator: AsyncIteratorProtocol {
            /// Events never fail.
            public typealias Failure = Never

            fileprivate var base: AsyncStream<Event>.Iterator

            /// The next event; nil once the reader is gone.
            public mutating func next() async -> Event? { await base.next() }
        }
    }
}

/// Hands each of the reader's events to every ``PaymentCardReader/Events`` made so far and not yet ended.
final class EventBroadcast: @unchecked Sendable {  // its state is behind the lock
    private struct Subscribers {
        var next: UInt64 = 0
        var continuations: [UInt64: AsyncStream<PaymentCardReader.Event>.Continuation] = [:]
        var finished = false
    }

    private let lock = NSLock()
    private var state = Subscribers()

    /// A new sequence of the events from now on.
    func subscribe() -> PaymentCardReader.Events {
        let (events, continuation) = PaymentCardReader.Events.makeStream()
        let id: UInt64? = lock.withLock {
            guard !state.finished else { return nil }
            state.next += 1
            state.continuations[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return events
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = lock.withLock { state.continuations.removeValue(forKey: id) }
        }
        return events
    }

    /// Gives `event` to every live sequence.
    func yield(_ event: PaymentCardReader.Event) {
        for continuation in lock.withLock({ Array(state.continuations.values) }) { continuation.yield(event) }
    }

    /// Ends every sequence, and those made later at once: the reader is gone.
    func finish() {
        let continuations = lock.withLock {
            state.finished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
