public import Foundation

/// What happened on the simulated sheet, in order: the controller's transcript, for tests and `tap demo`.
public enum AuthorizationEvent: Hashable, Sendable {
    /// The sheet opened with this total.
    case presented(total: Decimal)
    /// The delegate was told of a payment method.
    case didSelectPaymentMethod(PaymentMethod)
    /// The delegate was told of a shipping contact (redacted, as it saw it).
    case didSelectShippingContact(Contact)
    /// The delegate was told of a shipping method.
    case didSelectShippingMethod(ShippingMethod)
    /// The delegate was told of a coupon code.
    case didChangeCouponCode(String)
    /// An update was applied: the new total and the errors now shown.
    case updated(total: Decimal, errors: [PaymentError.Code])
    /// The token maker made a token for this card and amount.
    case tokenMade(displayName: String, total: Decimal)
    /// The delegate answered an authorization.
    case didAuthorizePayment(PaymentAuthorizationResult.Status, errors: [PaymentError.Code])
    /// The sheet closed; `cancelled` when the customer cancelled.
    case didFinish(cancelled: Bool)
}
