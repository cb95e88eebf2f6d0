/// How a run of the simulated sheet ended.
public enum PaymentAuthorizationOutcome: Hashable, Sendable {
    /// The sheet is still open (the script ended before paying or cancelling).
    case pending
    /// The customer paid and the merchant accepted: the payment with its token and full contacts.
    case authorized(Payment)
    /// The customer cancelled.
    case cancelled
    /// The merchant closed the sheet with ``PaymentAuthorizationController/dismiss()``.
    case dismissed
}
