/// The merchant's answer to an authorized payment, as PassKit's `PKPaymentAuthorizationResult`.
public struct PaymentAuthorizationResult: Hashable, Sendable {
    /// Whether the merchant processed the payment, as PassKit's `PKPaymentAuthorizationStatus` (the two cases the
    /// sheet acts on; ``PaymentAuthorizationResult/init(_:)`` maps the older ``PaymentAuthorizationStatus`` values
    /// onto them).
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// The payment went through; the sheet closes.
        case success
        /// The payment failed; the sheet stays, showing ``PaymentAuthorizationResult/errors``.
        case failure
    }

    /// Success or failure.
    public var status: Status
    /// What the customer must fix, for a failure.
    public var errors: [PaymentError]

    /// A result from its parts.
    public init(status: Status, errors: [PaymentError] = []) {
        self.status = status
        self.errors = errors
    }
}
