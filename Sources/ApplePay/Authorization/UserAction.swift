/// One thing the customer does on the simulated sheet; a script of them drives
/// ``PaymentAuthorizationController/run(_:)``.
public enum UserAction: Hashable, Sendable {
    /// Picks the wallet card with this ``SimulatedWallet/Card/id``.
    case selectPaymentMethod(cardID: String)
    /// Enters or picks a shipping contact (the merchant sees it redacted until authorization).
    case selectShippingContact(Contact)
    /// Picks the shipping method with this identifier.
    case selectShippingMethod(identifier: String)
    /// Enters a coupon code.
    case enterCouponCode(String)
    /// Confirms the payment (Face ID, Touch ID or passcode).
    case authorize
    /// Closes the sheet without paying.
    case cancel
}
