extension ReaderSDK {
    /// The terminal's events as an async sequence with a single consumer; unread events are buffered.
    public struct Events: AsyncSequence, Sendable {
        /// The element: a terminal event.
        public typealias Element = Event
        /// The sequence cannot fail.
        public typealias Failure = Never

        private let base: AsyncStream<Event>

        /// Makes the sequence and its feeding continuation (for the terminal, and for tests that need a stream).
        public static func makeStream() -> (events: Events, continuation: AsyncStream<Event>.Continuation) {
            let (base, continuation) = AsyncStream<Event>.makeStream()
            return (Events(base: base), continuation)
        }

        /// The iterator.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(iterator: base.makeAsyncIterator()) }

        /// Reads events one by one.
        public struct AsyncIterator: AsyncIteratorProtocol {
            /// The iterator cannot fail.
            public typealias Failure = Never

            var iterator: AsyncStream<Event>.Iterator

            /// The following event, or nil when the terminal has been released.
            public mutating func next() async -> Event? { await iterator.next() }
        }
    }
}
