extension ContactlessPaymentSession {
    /// What happens in a session (Thales: `ContactlessPaymentSession.Event`). The flow ends with
    /// ``transactionCompleted(_:)`` or ``errorEncountered(_:)``, after which the stream finishes.
    public enum Event: Sendable, CustomStringConvertible {
        /// The cardholder must authenticate: call ``Authentication/proceed()`` or ``Authentication/cancel()``.
        case authenticationRequired(Authentication)
        /// The cardholder authenticated; the card is in the field (emulation starts with
        /// ``ContactlessPaymentSession/startEmulation()``).
        case authenticationCompleted
        /// A reader talks to the phone.
        case posConnected
        /// The reader lost the phone while a transaction was in progress: tap again.
        case posDisconnected
        /// The card completed the transaction.
        case transactionCompleted(TransactionContext)
        /// The session ended with an error.
        case errorEncountered(ContactlessPaymentSessionError)

        /// The event's name (and the error's code or the transaction).
        public var description: String {
            switch self {
            case .authenticationRequired: "authenticationRequired"
            case .authenticationCompleted: "authenticationCompleted"
            case .posConnected: "posConnected"
            case .posDisconnected: "posDisconnected"
            case .transactionCompleted(let context): "transactionCompleted(\(context))"
            case .errorEncountered(let error): "errorEncountered(\(error.code))"
            }
        }
    }
}
