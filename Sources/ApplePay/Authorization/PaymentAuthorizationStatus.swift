/// How the merchant processed an authorized payment, in PassKit's older form: `PKPaymentAuthorizationStatus`, which
/// `didAuthorizePayment` completions took before `PKPaymentAuthorizationResult` (raw values are PassKit's).
///
/// Code written against it answers with ``PaymentAuthorizationResult/init(_:)``, which maps each status onto
/// today's result: ``PaymentAuthorizationResult/Status/success`` or ``PaymentAuthorizationResult/Status/failure``
/// with the ``PaymentError`` PassKit now asks for in its place.
public enum PaymentAuthorizationStatus: Int, Hashable, Sendable, CaseIterable {
    /// The payment went through.
    case success = 0
    /// The payment failed.
    case failure = 1
    /// The billing address is not valid (deprecated in PassKit: a failure with a billing contact error).
    case invalidBillingPostalAddress = 2
    /// The shipping address is not valid (deprecated in PassKit: a failure with a shipping contact error).
    case invalidShippingPostalAddress = 3
    /// The shipping contact is not valid (deprecated in PassKit: a failure with a shipping contact error).
    case invalidShippingContact = 4
    /// The transaction needs the card's PIN (PassKit asks for it on the sheet, for some networks).
    case pinRequired = 5
    /// The PIN entered was wrong.
    case pinIncorrect = 6
    /// The PIN was wrong too many times.
    case pinLockout = 7
}

extension PaymentAuthorizationResult {
    /// The result an older `didAuthorizePayment` completion status stands for.
    ///
    /// - ``PaymentAuthorizationStatus/success``, ``PaymentAuthorizationStatus/failure``: the same status, no errors.
    /// - ``PaymentAuthorizationStatus/invalidBillingPostalAddress``: failure with a
    ///   ``PaymentError/Code/billingContactInvalid`` error on the postal address.
    /// - ``PaymentAuthorizationStatus/invalidShippingPostalAddress``: failure with a
    ///   ``PaymentError/Code/shippingContactInvalid`` error on the postal address.
    /// - ``PaymentAuthorizationStatus/invalidShippingContact``: failure with a
    ///   ``PaymentError/Code/shippingContactInvalid`` error naming no field.
    /// - The PIN statuses: failure with no error. The simulated sheet has no PIN pad, so the sheet stays open and
    ///   the customer may authorize again, as after a PIN entry.
    public init(_ status: PaymentAuthorizationStatus) {
        switch status {
        case .success:
            self.init(status: .success)
        case .failure, .pinRequired, .pinIncorrect, .pinLockout:
            self.init(status: .failure)
        case .invalidBillingPostalAddress:
            self.init(
                status: .failure,
                errors: [
                    PaymentError(
                        code: .billingContactInvalid, contactField: .postalAddress,
                        message: "the billing address is invalid")
                ])
        case .invalidShippingPostalAddress:
            self.init(
                status: .failure,
                errors: [
                    PaymentError(
                        code: .shippingContactInvalid, contactField: .postalAddress,
                        message: "the shipping address is invalid")
                ])
        case .invalidShippingContact:
            self.init(
                status: .failure,
                errors: [PaymentError(code: .shippingContactInvalid, message: "the shipping contact is invalid")])
        }
    }
}
