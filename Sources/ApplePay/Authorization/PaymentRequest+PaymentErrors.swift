extension PaymentRequest {
    /// A shipping contact field is invalid, as PassKit's `paymentContactInvalidError(withContactField:…)`.
    public static func paymentContactInvalidError(
        withContactField field: ContactField, localizedDescription: String? = nil
    ) -> PaymentError {
        PaymentError(
            code: .shippingContactInvalid, contactField: field,
            message: localizedDescription ?? "the shipping contact's \(field.rawValue) is invalid")
    }

    /// A field of the shipping address is invalid, as PassKit's `paymentShippingAddressInvalidError(withKey:…)`.
    public static func paymentShippingAddressInvalidError(
        withKey postalAddressKey: String, localizedDescription: String? = nil
    ) -> PaymentError {
        PaymentError(
            code: .shippingContactInvalid, contactField: .postalAddress, postalAddressKey: postalAddressKey,
            message: localizedDescription ?? "the shipping address's \(postalAddressKey) is invalid")
    }

    /// A field of the billing address is invalid, as PassKit's `paymentBillingAddressInvalidError(withKey:…)`.
    public static func paymentBillingAddressInvalidError(
        withKey postalAddressKey: String, localizedDescription: String? = nil
    ) -> PaymentError {
        PaymentError(
            code: .billingContactInvalid, contactField: .postalAddress, postalAddressKey: postalAddressKey,
            message: localizedDescription ?? "the billing address's \(postalAddressKey) is invalid")
    }

    /// The merchant does not ship there, as PassKit's `paymentShippingAddressUnserviceableError(…)`.
    public static func paymentShippingAddressUnserviceableError(
        withLocalizedDescription localizedDescription: String? = nil
    ) -> PaymentError {
        PaymentError(
            code: .shippingAddressUnserviceable, contactField: .postalAddress,
            message: localizedDescription ?? "the merchant does not deliver to this address")
    }

    /// The coupon code is unknown, as PassKit's `paymentCouponCodeInvalidError(localizedDescription:)`.
    public static func paymentCouponCodeInvalidError(localizedDescription: String? = nil) -> PaymentError {
        PaymentError(code: .couponCodeInvalid, message: localizedDescription ?? "the coupon code is invalid")
    }

    /// The coupon code has expired, as PassKit's `paymentCouponCodeExpiredError(localizedDescription:)`.
    public static func paymentCouponCodeExpiredError(localizedDescription: String? = nil) -> PaymentError {
        PaymentError(code: .couponCodeExpired, message: localizedDescription ?? "the coupon code has expired")
    }
}
