extension PaymentCardReader {
    /// What the reader's (simulated) system UI shows, in order, on ``PaymentCardReader/events``
    /// (ProximityReader's `PaymentCardReader.Event`).
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// A device's first prepare: percent done, 0…100.
        case updateProgress(Int)
        /// The reader cannot read: the app went to the background, or the session ended.
        case notReady
        /// The field is on: present a card.
        case readyForTap
        /// A card entered the field.
        case cardDetected
        /// The card was read: it may be removed.
        case removeCard
        /// The card could not be read this time: present it again.
        case readRetry
        /// The cardholder is asked for the PIN.
        case pinEntryRequested
        /// The cardholder finished PIN entry (entered, bypassed or cancelled).
        case pinEntryCompleted
        /// The read completed.
        case readCompleted
        /// The read ended without a result (failure, decline by the card, background).
        case readNotCompleted
        /// The read was cancelled with `cancelRead()`.
        case readCancelled
        /// The reader's sheet closed.
        case userInterfaceDismissed

        /// Apple's case name, e.g. `readyForTap`.
        public var name: String {
            switch self {
            case .updateProgress: "updateProgress"
            case .notReady: "notReady"
            case .readyForTap: "readyForTap"
            case .cardDetected: "cardDetected"
            case .removeCard: "removeCard"
            case .readRetry: "readRetry"
            case .pinEntryRequested: "pinEntryRequested"
            case .pinEntryCompleted: "pinEntryCompleted"
            case .readCompleted: "readCompleted"
            case .readNotCompleted: "readNotCompleted"
            case .readCancelled: "readCancelled"
            case .userInterfaceDismissed: "userInterfaceDismissed"
            }
        }

        /// The name, with the percentage for progress: `updateProgress(25)`.
        public var description: String {
            if case .updateProgress(let percent) = self { return "updateProgress(\(percent))" }
            return name
        }
    }
}
