public import EMV

/// Why a ``PaymentRequest`` cannot be shown: each validation rule has its own code.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: PaymentRequestError.totalMismatch)`. Messages
/// name the field and the rule, never contact details or application data.
public struct PaymentRequestError: CodedError {
    /// Which rule the request breaks.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable, CaseIterable {
            case malformedJSON, merchantIdentifierMissing, invalidCountryCode, invalidCurrencyCode
            case noSupportedNetworks, unknownNetwork, noMerchantCapabilities, threeDSecureRequired
            case noSummaryItems, emptyLabel, invalidAmount, tooManyFractionDigits
            case totalMismatch, negativeTotal, pendingTotalRequired
            case conflictingPaymentTypes, tokenContextsExceedTotal, invalidTokenContext
            case invalidSupportedCountry, duplicateShippingMethodIdentifier, invalidShippingMethod
            case invalidMerchantCategoryCode, invalidRecurrence, invalidReloadThreshold, invalidDeferredPayment
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The code named `name`; nil for a name this version does not know.
        public init?(name: String) {
            guard let base = Base(rawValue: name) else { return nil }
            self.base = base
        }

        /// The JSON form cannot be decoded (syntax, a missing or mistyped field, an amount that is not a decimal
        /// string); the message has the coding path.
        public static let malformedJSON = Code(.malformedJSON)
        /// `merchantIdentifier` is empty.
        public static let merchantIdentifierMissing = Code(.merchantIdentifierMissing)
        /// `countryCode` is not an ISO 3166-1 alpha-2 code.
        public static let invalidCountryCode = Code(.invalidCountryCode)
        /// `currencyCode` is not an ISO 4217 alphabetic code.
        public static let invalidCurrencyCode = Code(.invalidCurrencyCode)
        /// `supportedNetworks` is empty.
        public static let noSupportedNetworks = Code(.noSupportedNetworks)
        /// `supportedNetworks` names a network PassKit does not define.
        public static let unknownNetwork = Code(.unknownNetwork)
        /// `merchantCapabilities` is empty.
        public static let noMerchantCapabilities = Code(.noMerchantCapabilities)
        /// `merchantCapabilities` lacks `threeDSecure`, which PassKit requires of every payment request.
        public static let threeDSecureRequired = Code(.threeDSecureRequired)
        /// `paymentSummaryItems` is empty: there is no total.
        public static let noSummaryItems = Code(.noSummaryItems)
        /// A summary item or shipping method has an empty label.
        public static let emptyLabel = Code(.emptyLabel)
        /// An amount is not a number or does not fit 64-bit minor units.
        public static let invalidAmount = Code(.invalidAmount)
        /// An amount has more fraction digits than the currency's ISO 4217 minor unit (12.345 EUR, 1.5 JPY).
        public static let tooManyFractionDigits = Code(.tooManyFractionDigits)
        /// The last summary item (the total) differs from the sum of the items before it; checked only under
        /// ``PaymentRequest/ValidationRules/strict``, since PassKit allows it.
        public static let totalMismatch = Code(.totalMismatch)
        /// The total is below zero.
        public static let negativeTotal = Code(.negativeTotal)
        /// An item before the total is pending but the total is final: a total with an unknown part is pending.
        public static let pendingTotalRequired = Code(.pendingTotalRequired)
        /// More than one of recurring, automatic reload, deferred and multi-token requests is set.
        public static let conflictingPaymentTypes = Code(.conflictingPaymentTypes)
        /// The multi-token contexts' amounts add up to more than the total.
        public static let tokenContextsExceedTotal = Code(.tokenContextsExceedTotal)
        /// A multi-token context has an empty field, a negative amount or an external identifier used twice.
        public static let invalidTokenContext = Code(.invalidTokenContext)
        /// `supportedCountries` has a code that is not ISO 3166-1 alpha-2.
        public static let invalidSupportedCountry = Code(.invalidSupportedCountry)
        /// Two shipping methods share an identifier.
        public static let duplicateShippingMethodIdentifier = Code(.duplicateShippingMethodIdentifier)
        /// A shipping method has an empty identifier or a date range that ends before it starts.
        public static let invalidShippingMethod = Code(.invalidShippingMethod)
        /// `merchantCategoryCode` is outside ISO 18245's 0000–9999.
        public static let invalidMerchantCategoryCode = Code(.invalidMerchantCategoryCode)
        /// A recurring item repeats every 0 or fewer units, or ends before it starts.
        public static let invalidRecurrence = Code(.invalidRecurrence)
        /// An automatic reload item's threshold is negative.
        public static let invalidReloadThreshold = Code(.invalidReloadThreshold)
        /// A deferred payment's free cancellation date is after the date it is charged.
        public static let invalidDeferredPayment = Code(.invalidDeferredPayment)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code's name, as in `PaymentRequestError.Code.totalMismatch`.
        public var description: String { base.rawValue }
    }

    /// Which rule the request breaks.
    public let code: Code
    /// What exactly is wrong, naming the field (`paymentSummaryItems[2].amount`).
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(code: Code, message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> PaymentRequestError {
        PaymentRequestError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/malformedJSON`` error.
    public static let malformedJSON = pattern(.malformedJSON)
    /// Matches any ``Code/merchantIdentifierMissing`` error.
    public static let merchantIdentifierMissing = pattern(.merchantIdentifierMissing)
    /// Matches any ``Code/invalidCountryCode`` error.
    public static let invalidCountryCode = pattern(.invalidCountryCode)
    /// Matches any ``Code/invalidCurrencyCode`` error.
    public static let invalidCurrencyCode = pattern(.invalidCurrencyCode)
    /// Matches any ``Code/noSupportedNetworks`` error.
    public static let noSupportedNetworks = pattern(.noSupportedNetworks)
    /// Matches any ``Code/unknownNetwork`` error.
    public static let unknownNetwork = pattern(.unknownNetwork)
    /// Matches any ``Code/noMerchantCapabilities`` error.
    public static let noMerchantCapabilities = pattern(.noMerchantCapabilities)
    /// Matches any ``Code/threeDSecureRequired`` error.
    public static let threeDSecureRequired = pattern(.threeDSecureRequired)
    /// Matches any ``Code/noSummaryItems`` error.
    public static let noSummaryItems = pattern(.noSummaryItems)
    /// Matches any ``Code/emptyLabel`` error.
    public static let emptyLabel = pattern(.emptyLabel)
    /// Matches any ``Code/invalidAmount`` error.
    public static let invalidAmount = pattern(.invalidAmount)
    /// Matches any ``Code/tooManyFractionDigits`` error.
    public static let tooManyFractionDigits = pattern(.tooManyFractionDigits)
    /// Matches any ``Code/totalMismatch`` error.
    public static let totalMismatch = pattern(.totalMismatch)
    /// Matches any ``Code/negativeTotal`` error.
    public static let negativeTotal = pattern(.negativeTotal)
    /// Matches any ``Code/pendingTotalRequired`` error.
    public static let pendingTotalRequired = pattern(.pendingTotalRequired)
    /// Matches any ``Code/conflictingPaymentTypes`` error.
    public static let conflictingPaymentTypes = pattern(.conflictingPaymentTypes)
    /// Matches any ``Code/tokenContextsExceedTotal`` error.
    public static let tokenContextsExceedTotal = pattern(.tokenContextsExceedTotal)
    /// Matches any ``Code/invalidTokenContext`` error.
    public static let invalidTokenContext = pattern(.invalidTokenContext)
    /// Matches any ``Code/invalidSupportedCountry`` error.
    public static let invalidSupportedCountry = pattern(.invalidSupportedCountry)
    /// Matches any ``Code/duplicateShippingMethodIdentifier`` error.
    public static let duplicateShippingMethodIdentifier = pattern(.duplicateShippingMethodIdentifier)
    /// Matches any ``Code/invalidShippingMethod`` error.
    public static let invalidShippingMethod = pattern(.invalidShippingMethod)
    /// Matches any ``Code/invalidMerchantCategoryCode`` error.
    public static let invalidMerchantCategoryCode = pattern(.invalidMerchantCategoryCode)
    /// Matches any ``Code/invalidRecurrence`` error.
    public static let invalidRecurrence = pattern(.invalidRecurrence)
    /// Matches any ``Code/invalidReloadThreshold`` error.
    public static let invalidReloadThreshold = pattern(.invalidReloadThreshold)
    /// Matches any ``Code/invalidDeferredPayment`` error.
    public static let invalidDeferredPayment = pattern(.invalidDeferredPayment)
}
