/// The merchant's side of the sheet, as PassKit's `PKPaymentAuthorizationControllerDelegate` with its async
/// methods: answers each change with an update, processes the authorized payment, and learns when the sheet closes.
///
/// Only ``paymentAuthorizationController(_:didAuthorizePayment:)`` and
/// ``paymentAuthorizationControllerDidFinish(_:)`` are required; the selection callbacks default to keeping the
/// current summary items, as PassKit does when a delegate does not implement them.
public protocol PaymentAuthorizationControllerDelegate: Sendable {
    /// The customer picked a card; answer with the items for it (a surcharge for credit, say).
    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectPaymentMethod paymentMethod: PaymentMethod
    ) async -> PaymentRequestPaymentMethodUpdate

    /// The customer picked a shipping contact, redacted to city, state, postal code prefix and country; answer
    /// with items and shipping methods for it, or errors.
    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectShippingContact contact: Contact
    ) async -> PaymentRequestShippingContactUpdate

    /// The customer picked a shipping method; answer with items that include its cost.
    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectShippingMethod shippingMethod: ShippingMethod
    ) async -> PaymentRequestShippingMethodUpdate

    /// The customer entered a coupon code; answer with discounted items, or a coupon error.
    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didChangeCouponCode couponCode: String
    ) async -> PaymentRequestCouponCodeUpdate

    /// The customer authorized; process the payment (send its token to the server) and say how it went.
    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didAuthorizePayment payment: Payment
    ) async -> PaymentAuthorizationResult

    /// The sheet closed: after a successful payment, a cancel, or a dismiss.
    func paymentAuthorizationControllerDidFinish(_ controller: PaymentAuthorizationController) async
}

extension PaymentAuthorizationControllerDelegate {
    /// Keeps the current items.
    public func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectPaymentMethod paymentMethod: PaymentMethod
    ) async -> PaymentRequestPaymentMethodUpdate {
        PaymentRequestUpdate(paymentSummaryItems: await controller.paymentRequest.paymentSummaryItems)
    }

    /// Keeps the current items and shipping methods.
    public func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectShippingContact contact: Contact
    ) async -> PaymentRequestShippingContactUpdate {
        PaymentRequestUpdate(paymentSummaryItems: await controller.paymentRequest.paymentSummaryItems)
    }

    /// Keeps the current items.
    public func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectShippingMethod shippingMethod: ShippingMethod
    ) async -> PaymentRequestShippingMethodUpdate {
        PaymentRequestUpdate(paymentSummaryItems: await controller.paymentRequest.paymentSummaryItems)
    }

    /// Keeps the current items.
    public func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didChangeCouponCode couponCode: String
    ) async -> PaymentRequestCouponCodeUpdate {
        PaymentRequestUpdate(paymentSummaryItems: await controller.paymentRequest.paymentSummaryItems)
    }
}
