/// The card the customer picked, as PassKit's `PKPaymentMethod`: display name, network and kind, never the number.
public struct PaymentMethod: Hashable, Sendable {
    /// What the sheet shows, such as "Visa 1234".
    public var displayName: String
    /// The card's network.
    public var network: PaymentNetwork
    /// Debit, credit, prepaid, …
    public var type: PaymentMethodType
    /// The billing contact stored with the card (redacted in ``PaymentAuthorizationControllerDelegate`` selection
    /// callbacks, whole in the authorized ``Payment``).
    public var billingAddress: Contact?

    /// A payment method from its parts.
    public init(
        displayName: String, network: PaymentNetwork, type: PaymentMethodType, billingAddress: Contact? = nil
    ) {
        self.displayName = displayName
        self.network = network
        self.type = type
        self.billingAddress = billingAddress
    }

    /// The payment method a wallet card presents.
    public init(_ card: SimulatedWallet.Card) {
        self.init(
            displayName: card.displayName, network: card.network, type: card.type, billingAddress: card.billingContact)
    }

    /// The token's `paymentMethod` object for this method.
    public var tokenDescription: PaymentMethodDescription {
        PaymentMethodDescription(displayName: displayName, network: network.rawValue, type: type.rawValue)
    }
}
