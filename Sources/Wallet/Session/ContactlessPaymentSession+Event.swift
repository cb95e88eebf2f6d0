extension ContactlessPaymentSession {
    /// What happens in a payment (Thales: `ContactlessPaymentSession.Event`). The flow ends with
    /// ``transactionCompleted(_:)`` or ``errorEncountered(_:)``, after which the payment's stream finishes.
    public enum Event: Sendable, CustomStringConvertible {
        /// The cardholder must authenticate: call ``Authentication/proceed()`` or ``Authentication/cancel()``.
        case authenticationRequired(Authentication)
        /// The cardholder authenticated; the card is in the field (emulation starts with
        /// ``ContactlessPaymentSession/startEmulation()``).
        case authenticationCompleted
        /// A reader is at the phone (Thales: "the device is tapped to POS reader"): sent after
        /// ``authenticationCompleted`` — at once when a reader is already there — when a reader first talks to the
        /// phone; for field-detect, the cue to call ``ContactlessPaymentSession/startEmulation()``.
        ///
        /// Once per tap: after it, the reader's further field detections are suppressed — its polls before
        /// emulation, and, while the emulation sheet is up, the reader leaving and coming back — until
        /// ``posDisconnected`` asks for another tap, whose reader is reported again. Nothing after the transaction
        /// completed.
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
