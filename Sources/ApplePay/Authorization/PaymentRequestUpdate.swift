/// The merchant's answer to a change on the sheet, as PassKit's `PKPaymentRequestUpdate` and its subclasses:
/// the new summary items (always), optionally new shipping methods and payment-type requests, and errors to show.
///
/// The controller applies it to its ``PaymentAuthorizationController/paymentRequest`` and validates the result
/// (the total again equals the sum of the items before it, and so on); while ``errors`` is not empty the customer
/// cannot authorize.
public struct PaymentRequestUpdate: Hashable, Sendable {
    /// The new summary items; the last is the total.
    public var paymentSummaryItems: [SummaryItem]
    /// New shipping methods; nil keeps the current ones.
    public var shippingMethods: [ShippingMethod]?
    /// Errors the sheet shows; the customer must resolve them before paying.
    public var errors: [PaymentError]
    /// A new multi-token request; nil keeps the current one.
    public var multiTokenContexts: [PaymentTokenContext]?
    /// A new recurring request; nil keeps the current one.
    public var recurringPaymentRequest: RecurringPaymentRequest?
    /// A new automatic reload request; nil keeps the current one.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest?
    /// A new deferred request; nil keeps the current one.
    public var deferredPaymentRequest: DeferredPaymentRequest?

    /// An update from its parts.
    public init(
        paymentSummaryItems: [SummaryItem], shippingMethods: [ShippingMethod]? = nil, errors: [PaymentError] = [],
        multiTokenContexts: [PaymentTokenContext]? = nil, recurringPaymentRequest: RecurringPaymentRequest? = nil,
        automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? = nil,
        deferredPaymentRequest: DeferredPaymentRequest? = nil
    ) {
        self.paymentSummaryItems = paymentSummaryItems
        self.shippingMethods = shippingMethods
        self.errors = errors
        self.multiTokenContexts = multiTokenContexts
        self.recurringPaymentRequest = recurringPaymentRequest
        self.automaticReloadPaymentRequest = automaticReloadPaymentRequest
        self.deferredPaymentRequest = deferredPaymentRequest
    }
}

/// The answer to a new payment method (PassKit's `PKPaymentRequestPaymentMethodUpdate`).
public typealias PaymentRequestPaymentMethodUpdate = PaymentRequestUpdate
/// The answer to a new shipping contact (PassKit's `PKPaymentRequestShippingContactUpdate`).
public typealias PaymentRequestShippingContactUpdate = PaymentRequestUpdate
/// The answer to a new shipping method (PassKit's `PKPaymentRequestShippingMethodUpdate`).
public typealias PaymentRequestShippingMethodUpdate = PaymentRequestUpdate
/// The answer to a new coupon code (PassKit's `PKPaymentRequestCouponCodeUpdate`).
public typealias PaymentRequestCouponCodeUpdate = PaymentRequestUpdate
