extension PaymentCardReader {
    /// How the reader returns results (ProximityReader's `PaymentCardReader.Options`).
    public struct Options: Sendable, Hashable {
        /// Return a read result whose ``PaymentCardReadResult/outcome`` says what went wrong instead of throwing,
        /// when there is card data to return (a card's offline decline).
        public var includeErrorInReadResult: Bool
        /// Return the result as soon as the card is read, before the sheet closes: ``Event/userInterfaceDismissed``
        /// then comes at the start of the session's next call, or when the session ends.
        public var returnReadResultImmediately: Bool

        /// Both off, as Apple's defaults.
        public init() {
            includeErrorInReadResult = false
            returnReadResultImmediately = false
        }

        /// Creates options.
        public init(includeErrorInReadResult: Bool, returnReadResultImmediately: Bool) {
            self.includeErrorInReadResult = includeErrorInReadResult
            self.returnReadResultImmediately = returnReadResultImmediately
        }
    }
}
