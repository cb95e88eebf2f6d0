/// A device's Wallet for tests and demos: whether the device supports Apple Pay and which cards it holds.
///
/// It answers PassKit's availability questions (`PKPaymentAuthorizationController.canMakePayments…`) and says which
/// cards a request lets the customer pick.
public struct SimulatedWallet: Hashable, Sendable {
    /// A card provisioned in the wallet.
    public struct Card: Hashable, Sendable, Identifiable {
        /// The wallet's identifier of the card (the token service maps it to its device account).
        public var id: String
        /// The card's network.
        public var network: PaymentNetwork
        /// Debit, credit, prepaid, …
        public var type: PaymentMethodType
        /// The protocols the card's issuer supports: ``MerchantCapability/threeDSecure`` and/or
        /// ``MerchantCapability/emv``.
        public var capabilities: MerchantCapability
        /// What the sheet shows, such as "Visa 1234" (never the card number).
        public var displayName: String
        /// The ISO 3166-1 alpha-2 code of the issuer's country, checked against a request's `supportedCountries`.
        public var issuerCountryCode: String
        /// The billing contact stored with the card.
        public var billingContact: Contact?

        /// A card from its parts.
        public init(
            id: String, network: PaymentNetwork, type: PaymentMethodType,
            capabilities: MerchantCapability = .threeDSecure, displayName: String, issuerCountryCode: String = "US",
            billingContact: Contact? = nil
        ) {
            self.id = id
            self.network = network
            self.type = type
            self.capabilities = capabilities
            self.displayName = displayName
            self.issuerCountryCode = issuerCountryCode
            self.billingContact = billingContact
        }

        /// Whether a merchant with `capabilities` can take this card.
        ///
        /// A merchant that names credit and/or debit takes only those kinds (prepaid counts as debit; store and
        /// e-money cards are not filtered by kind); one that names 3-D Secure and/or EMV takes only cards whose
        /// issuer supports one of them. A merchant naming neither kind nor protocol takes every card.
        public func isAccepted(with capabilities: MerchantCapability) -> Bool {
            let kinds = capabilities.intersection([.credit, .debit])
            let kindAccepted =
                switch type {
                case .credit: kinds.isEmpty || kinds.contains(.credit)
                case .debit, .prepaid: kinds.isEmpty || kinds.contains(.debit)
                case .store, .eMoney, .unknown: true
                }
            let protocols = capabilities.intersection([.threeDSecure, .emv])
            return kindAccepted && (protocols.isEmpty || !protocols.isDisjoint(with: self.capabilities))
        }
    }

    /// Whether the device can use Apple Pay at all (hardware, region, parental controls).
    public var deviceSupportsApplePay: Bool
    /// The cards in the wallet, the default first.
    public var cards: [Card]

    /// A wallet on a device that does or does not support Apple Pay.
    public init(deviceSupportsApplePay: Bool = true, cards: [Card]) {
        self.deviceSupportsApplePay = deviceSupportsApplePay
        self.cards = cards
    }

    /// Whether the device supports Apple Pay, cards or not (PassKit's `canMakePayments()`).
    public func canMakePayments() -> Bool { deviceSupportsApplePay }

    /// Whether the device supports Apple Pay and holds a card on one of `networks`.
    public func canMakePayments(usingNetworks networks: [PaymentNetwork]) -> Bool {
        canMakePayments(usingNetworks: networks, capabilities: [])
    }

    /// Whether the device supports Apple Pay and holds a card on one of `networks` that a merchant with
    /// `capabilities` takes (see ``Card/isAccepted(with:)``).
    public func canMakePayments(usingNetworks networks: [PaymentNetwork], capabilities: MerchantCapability) -> Bool {
        deviceSupportsApplePay
            && cards.contains { networks.contains($0.network) && $0.isAccepted(with: capabilities) }
    }

    /// The cards the sheet offers for `request`: on a supported network, taken with its capabilities, and issued
    /// in one of its supported countries (when it names any). Empty when the device does not support Apple Pay.
    public func eligibleCards(for request: PaymentRequest) -> [Card] {
        guard deviceSupportsApplePay else { return [] }
        return cards.filter { card in
            request.supportedNetworks.contains(card.network) && card.isAccepted(with: request.merchantCapabilities)
                && (request.supportedCountries.map { countries in
                    countries.contains { $0.uppercased() == card.issuerCountryCode.uppercased() }
                } ?? true)
        }
    }
}
