extension PaymentCardReader {
    /// The reader's events, in order, as an async sequence (one consumer; events wait in a buffer until read).
    public struct Events: AsyncSequence, Sendable {
        /// An event.
        public typealias Element = Event
        /// Events never fail.
        public typealias Failure = Never

        private let stream: AsyncStream<Event>

        private init(stream: AsyncStream<Event>) { self.stream = stream }

        /// A sequence and the continuation that feeds it: what the reader uses, and a way to make a testing stream.
        public static func makeStream() -> (events: Events, continuation: AsyncStream<Event>.Continuation) {
            makeStream(bufferingPolicy: .unbounded)
        }

        static func makeStream(
            bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy
        ) -> (events: Events, continuation: AsyncStream<Event>.Continuation) {
            let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: bufferingPolicy)
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
