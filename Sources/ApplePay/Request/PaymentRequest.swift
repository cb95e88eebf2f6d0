public import EMV
public import Foundation

/// A request for payment, in the shape of PassKit's `PKPaymentRequest`: who is paid, in which currency and
/// country, with which networks and capabilities, for which items, and what the sheet must collect.
///
/// ``validate(_:)`` checks every rule PassKit enforces at run time and throws a ``PaymentRequestError`` naming the
/// one broken. The JSON form (``init(json:)``, ``json()``) is the one `tap applepay request --validate` reads; see
/// `Examples/ApplePay/payment-request.json`: property names as here, amounts as decimal strings, dates ISO 8601,
/// `applicationData` base64, networks by Apple's raw value, capabilities and contact fields by name.
public struct PaymentRequest: Hashable, Sendable, Codable {
    /// The Apple Pay merchant identifier (`merchant.com.example`), whose certificate the token is encrypted for.
    public var merchantIdentifier: String
    /// The ISO 3166-1 alpha-2 code of the country where the payment is processed.
    public var countryCode: String
    /// The ISO 4217 alphabetic code of the currency of every amount in the request.
    public var currencyCode: String
    /// The networks the merchant accepts.
    public var supportedNetworks: [PaymentNetwork]
    /// The merchant's processing capabilities; must include ``MerchantCapability/threeDSecure``.
    public var merchantCapabilities: MerchantCapability
    /// The lines of the sheet; the last one is the total (see ``validate(_:)``).
    public var paymentSummaryItems: [SummaryItem]
    /// The shipping methods offered; the first is preselected.
    public var shippingMethods: [ShippingMethod]
    /// How the order reaches the customer.
    public var shippingType: ShippingType
    /// The billing contact fields the sheet must collect.
    public var requiredBillingContactFields: Set<ContactField>
    /// The shipping contact fields the sheet must collect.
    public var requiredShippingContactFields: Set<ContactField>
    /// A billing contact to prefill.
    public var billingContact: Contact?
    /// A shipping contact to prefill.
    public var shippingContact: Contact?
    /// The ISO 3166-1 alpha-2 codes of the countries whose cards are accepted; nil for all.
    public var supportedCountries: Set<String>?
    /// Merchant data whose SHA-256 the token's header carries (`applicationData`).
    public var applicationData: Data?
    /// A coupon code to prefill.
    public var couponCode: String?
    /// Whether the sheet lets the customer enter a coupon code.
    public var supportsCouponCode: Bool
    /// Whether the customer may edit the shipping contact.
    public var shippingContactEditingMode: ShippingContactEditingMode
    /// A request for a recurring-payment merchant token.
    public var recurringPaymentRequest: RecurringPaymentRequest?
    /// A request for an automatic-reload merchant token.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest?
    /// A request for a deferred-payment merchant token.
    public var deferredPaymentRequest: DeferredPaymentRequest?
    /// One token per context for a multi-merchant payment; empty for one merchant.
    public var multiTokenContexts: [PaymentTokenContext]
    /// The merchant's ISO 18245 category code (0–9999), if it sets one.
    public var merchantCategoryCode: Int?

    /// A request with the required parts; the rest start empty, as a new `PKPaymentRequest` does.
    public init(
        merchantIdentifier: String, countryCode: String, currencyCode: String,
        supportedNetworks: [PaymentNetwork], merchantCapabilities: MerchantCapability = .threeDSecure,
        paymentSummaryItems: [SummaryItem]
    ) {
        self.merchantIdentifier = merchantIdentifier
        self.countryCode = countryCode
        self.currencyCode = currencyCode
        self.supportedNetworks = supportedNetworks
        self.merchantCapabilities = merchantCapabilities
        self.paymentSummaryItems = paymentSummaryItems
        shippingMethods = []
        shippingType = .shipping
        requiredBillingContactFields = []
        requiredShippingContactFields = []
        supportsCouponCode = false
        shippingContactEditingMode = .available
        multiTokenContexts = []
    }

    /// The last summary item: the total; nil when there are no items.
    public var total: SummaryItem? { paymentSummaryItems.last }

    /// The ISO 4217 currency of ``currencyCode``; nil for an unknown code.
    public var currency: Currency? { Currency(alphabeticCode: currencyCode) }

    /// The ISO 3166-1 country of ``countryCode``; nil for an unknown code.
    public var country: Country? { countryCode.count == 2 ? Country(alpha2: countryCode) : nil }

    private enum CodingKeys: String, CodingKey {
        case merchantIdentifier, countryCode, currencyCode, supportedNetworks, merchantCapabilities
        case paymentSummaryItems, shippingMethods, shippingType, requiredBillingContactFields
        case requiredShippingContactFields, billingContact, shippingContact, supportedCountries, applicationData
        case couponCode, supportsCouponCode, shippingContactEditingMode, recurringPaymentRequest
        case automaticReloadPaymentRequest, deferredPaymentRequest, multiTokenContexts, merchantCategoryCode
    }

    /// Decodes the JSON form; optional parts may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        merchantIdentifier = try container.decode(String.self, forKey: .merchantIdentifier)
        countryCode = try container.decode(String.self, forKey: .countryCode)
        currencyCode = try container.decode(String.self, forKey: .currencyCode)
        supportedNetworks = try container.decode([PaymentNetwork].self, forKey: .supportedNetworks)
        merchantCapabilities = try container.decode(MerchantCapability.self, forKey: .merchantCapabilities)
        paymentSummaryItems = try container.decode([SummaryItem].self, forKey: .paymentSummaryItems)
        shippingMethods = try container.decodeIfPresent([ShippingMethod].self, forKey: .shippingMethods) ?? []
        shippingType = try container.decodeIfPresent(ShippingType.self, forKey: .shippingType) ?? .shipping
        requiredBillingContactFields =
            try container.decodeIfPresent(Set<ContactField>.self, forKey: .requiredBillingContactFields) ?? []
        requiredShippingContactFields =
            try container.decodeIfPresent(Set<ContactField>.self, forKey: .requiredShippingContactFields) ?? []
        billingContact = try container.decodeIfPresent(Contact.self, forKey: .billingContact)
        shippingContact = try container.decodeIfPresent(Contact.self, forKey: .shippingContact)
        supportedCountries = try container.decodeIfPresent(Set<String>.self, forKey: .supportedCountries)
        applicationData = try container.decodeIfPresent(Data.self, forKey: .applicationData)
        couponCode = try container.decodeIfPresent(String.self, forKey: .couponCode)
        supportsCouponCode = try container.decodeIfPresent(Bool.self, forKey: .supportsCouponCode) ?? false
        shippingContactEditingMode =
            try container.decodeIfPresent(ShippingContactEditingMode.self, forKey: .shippingContactEditingMode)
            ?? .available
        recurringPaymentRequest =
            try container.decodeIfPresent(RecurringPaymentRequest.self, forKey: .recurringPaymentRequest)
        automaticReloadPaymentRequest =
            try container.decodeIfPresent(AutomaticReloadPaymentRequest.self, forKey: .automaticReloadPaymentRequest)
        deferredPaymentRequest =
            try container.decodeIfPresent(DeferredPaymentRequest.self, forKey: .deferredPaymentRequest)
        multiTokenContexts =
            try container.decodeIfPresent([PaymentTokenContext].self, forKey: .multiTokenContexts) ?? []
        merchantCategoryCode = try container.decodeIfPresent(Int.self, forKey: .merchantCategoryCode)
    }
}
