extension PaymentAuthorizationController {
    /// Whether the device supports Apple Pay, cards or not (PassKit's class method `canMakePayments()`), answered
    /// by ``SimulatedWallet/current``.
    public static func canMakePayments() -> Bool {
        SimulatedWallet.current.canMakePayments()
    }

    /// Whether the device supports Apple Pay and holds a card on one of `supportedNetworks` (PassKit's class method
    /// `canMakePayments(usingNetworks:)`), answered by ``SimulatedWallet/current``.
    public static func canMakePayments(usingNetworks supportedNetworks: [PaymentNetwork]) -> Bool {
        SimulatedWallet.current.canMakePayments(usingNetworks: supportedNetworks)
    }

    /// Whether the device supports Apple Pay and holds a card on one of `supportedNetworks` that a merchant with
    /// these capabilities takes (PassKit's class method `canMakePayments(usingNetworks:capabilities:)`; the inner
    /// name `capabilties` is PassKit's own spelling), answered by ``SimulatedWallet/current``.
    public static func canMakePayments(
        usingNetworks supportedNetworks: [PaymentNetwork], capabilities capabilties: MerchantCapability
    ) -> Bool {
        SimulatedWallet.current.canMakePayments(usingNetworks: supportedNetworks, capabilities: capabilties)
    }
}
