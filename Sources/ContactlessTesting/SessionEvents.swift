public import Wallet

/// Reads a session's events one at a time, so a test can act between them.
public struct SessionEvents {
    private var iterator: ContactlessPaymentEventStream.AsyncIterator
    /// Every event read so far, by name.
    public private(set) var names: [String] = []
    /// The completed transaction's context, once read.
    public private(set) var completed: TransactionContext?

    /// Reads `session`'s events from now on.
    public init(_ session: ContactlessPaymentSession) { iterator = session.eventStream.makeAsyncIterator() }

    /// The next event; nil after the last.
    public mutating func next() async -> ContactlessPaymentSession.Event? {
        let event = await iterator.next()
        if let event { names.append(Self.name(event)) }
        if case .transactionCompleted(let context) = event { completed = context }
        return event
    }

    /// Reads to the end; the names of the events read.
    public mutating func rest() async -> [String] {
        while await next() != nil {}
        return names
    }

    /// Starts a payment on `session` (with `digitalCardID`, or the default card), lets the cardholder authenticate
    /// and reads up to `authenticationCompleted`; the events so far. Works for a session's first payment and for
    /// the next one after a payment ended: the stream is read after starting, as the payment's own.
    public static func authenticated(_ session: ContactlessPaymentSession, digitalCardID: String? = nil) async throws
        -> SessionEvents
    {
        await session.startPayment(withDigitalCardID: digitalCardID)
        var events = SessionEvents(session)
        await events.authentication()?.proceed()
        guard case .authenticationCompleted = await events.next() else {
            throw SessionEventsError(names: events.names)
        }
        return events
    }

    /// The next event, expected to be `authenticationRequired`.
    public mutating func authentication() async -> Authentication? {
        guard case .authenticationRequired(let authentication) = await next() else { return nil }
        return authentication
    }

    /// An event's name: its description, with an error's code.
    public static func name(_ event: ContactlessPaymentSession.Event) -> String {
        switch event {
        case .errorEncountered(let error): "error:\(error.code)"
        case .transactionCompleted: "transactionCompleted"
        default: event.description
        }
    }
}

/// The session did not reach `authenticationCompleted`.
public struct SessionEventsError: Error, CustomStringConvertible {
    /// The events read instead.
    public let names: [String]
    /// What happened.
    public var description: String { "not authenticated: \(names)" }
}
