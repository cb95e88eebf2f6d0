/// The events of a ``ContactlessPaymentSession``, in order; finishes after the session's last event. One consumer.
public struct ContactlessPaymentEventStream: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = ContactlessPaymentSession.Event

    private let base: AsyncStream<Element>

    init(_ base: AsyncStream<Element>) { self.base = base }

    /// A stream and the continuation that feeds it: a session's own, or a test's.
    public static func makeStream() -> (
        stream: ContactlessPaymentEventStream, continuation: AsyncStream<Element>.Continuation
    ) {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        return (ContactlessPaymentEventStream(stream), continuation)
    }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator

        /// The next event; nil after the last.
        public mutating func next() async -> Element? { await base.next() }
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}
