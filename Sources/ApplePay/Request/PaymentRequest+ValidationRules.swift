extension PaymentRequest {
    /// Which rules ``PaymentRequest/validate(_:)`` checks: PassKit's own (``passKit``, the default), or those and
    /// the stricter checks a merchant opts into (``strict``).
    public struct ValidationRules: Hashable, Sendable {
        /// The total equals the sum of the items before it, else ``PaymentRequestError/Code/totalMismatch``.
        /// PassKit does not ask it: a sheet may show a few lines that do not break the total down completely.
        public var totalEqualsSumOfItems: Bool

        /// Rules with each stricter check on or off.
        public init(totalEqualsSumOfItems: Bool = false) {
            self.totalEqualsSumOfItems = totalEqualsSumOfItems
        }

        /// What PassKit enforces before it shows a sheet.
        public static let passKit = ValidationRules()
        /// PassKit's rules, and the total equal to the sum of the items.
        public static let strict = ValidationRules(totalEqualsSumOfItems: true)
    }
}
