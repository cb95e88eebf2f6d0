public import EMV

/// What the customer authorized, handed to the token maker (the test token service, or a real one) so it can make
/// the ``PaymentToken``: the final request, the card, the exact total and the chosen details.
public struct AuthorizedPayment: Hashable, Sendable {
    /// The request as the sheet last showed it, after every update.
    public var request: PaymentRequest
    /// The wallet card that pays (its ``SimulatedWallet/Card/id`` names the device account).
    public var card: SimulatedWallet.Card
    /// The total, exactly, in minor units of the request's currency.
    public var amount: Amount
    /// The full billing contact.
    public var billingContact: Contact?
    /// The full shipping contact.
    public var shippingContact: Contact?
    /// The chosen shipping method.
    public var shippingMethod: ShippingMethod?

    /// An authorized payment from its parts.
    public init(
        request: PaymentRequest, card: SimulatedWallet.Card, amount: Amount, billingContact: Contact? = nil,
        shippingContact: Contact? = nil, shippingMethod: ShippingMethod? = nil
    ) {
        self.request = request
        self.card = card
        self.amount = amount
        self.billingContact = billingContact
        self.shippingContact = shippingContact
        self.shippingMethod = shippingMethod
    }

    /// The card as the sheet and the token describe it.
    public var paymentMethod: PaymentMethod { PaymentMethod(card) }
}

/// Makes the token for an authorized payment: plug in the token service here.
public typealias PaymentTokenMaker = @Sendable (AuthorizedPayment) async throws -> PaymentToken
