import Wallet

/// Reads a session's events one at a time, so a test can act between them.
struct SessionEvents {
    private var iterator: ContactlessPaymentEventStream.AsyncIterator
    /// Every event read so far, by name.
    private(set) var names: [String] = []
    /// The completed transaction's context, once read.
    private(set) var completed: TransactionContext?

    init(_ session: ContactlessPaymentSession) { iterator = session.eventStream.makeAsyncIterator() }

    /// The next event; nil after the last.
    mutating func next() async -> ContactlessPaymentSession.Event? {
        let event = await iterator.next()
        if let event { names.append(Self.name(event)) }
        if case .transactionCompleted(let context) = event { completed = context }
        return event
    }

    /// Reads to the end; the names of the events read.
    mutating func rest() async -> [String] {
        while await next() != nil {}
        return names
    }

    /// Starts a payment on `session` (with `digitalCardID`, or the default card), lets the cardholder authenticate
    /// and reads up to `authenticationCompleted`; the events so far.
    static func authenticated(_ session: ContactlessPaymentSession, digitalCardID: String? = nil) async throws
        -> SessionEvents
    {
        var events = SessionEvents(session)
        await session.startPayment(withDigitalCardID: digitalCardID)
        await events.authentication()?.proceed()
        guard case .authenticationCompleted = await events.next() else {
            throw HarnessError("not authenticated: \(events.names)")
        }
        return events
    }

    /// The next event, expected to be `authenticationRequired`.
    mutating func authentication() async -> Authentication? {
        guard case .authenticationRequired(let authentication) = await next() else { return nil }
        return authentication
    }

    static func name(_ event: ContactlessPaymentSession.Event) -> String {
        switch event {
        case .errorEncountered(let error): "error:\(error.code)"
        case .transactionCompleted: "transactionCompleted"
        default: event.description
        }
    }
}
