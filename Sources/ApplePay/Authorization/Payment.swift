/// An authorized payment as the merchant receives it, as PassKit's `PKPayment`: the token and the full contacts.
public struct Payment: Hashable, Sendable {
    /// The encrypted, signed token the merchant's server decrypts.
    public var token: PaymentToken
    /// The card used.
    public var paymentMethod: PaymentMethod
    /// The full billing contact (no longer redacted).
    public var billingContact: Contact?
    /// The full shipping contact (no longer redacted).
    public var shippingContact: Contact?
    /// The chosen shipping method.
    public var shippingMethod: ShippingMethod?

    /// A payment from its parts.
    public init(
        token: PaymentToken, paymentMethod: PaymentMethod, billingContact: Contact? = nil,
        shippingContact: Contact? = nil, shippingMethod: ShippingMethod? = nil
    ) {
        self.token = token
        self.paymentMethod = paymentMethod
        self.billingContact = billingContact
        self.shippingContact = shippingContact
        self.shippingMethod = shippingMethod
    }
}
