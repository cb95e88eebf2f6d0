import ApplePay
import EMV
import Foundation
import Testing

/// One way to break a valid request, and the error it must yield.
struct Breakage: Sendable, CustomTestStringConvertible {
    let rule: String
    let expected: PaymentRequestError
    /// The rules that catch it: PassKit's, or the strict ones for a rule PassKit does not enforce.
    let rules: PaymentRequest.ValidationRules
    let mutate: @Sendable (inout PaymentRequest) -> Void

    init(
        _ rule: String, _ expected: PaymentRequestError, rules: PaymentRequest.ValidationRules = .passKit,
        _ mutate: @escaping @Sendable (inout PaymentRequest) -> Void
    ) {
        self.rule = rule
        self.expected = expected
        self.rules = rules
        self.mutate = mutate
    }

    var testDescription: String { "\(rule) → \(expected.code)\(rules == .strict ? " (strict)" : "")" }

    static let all: [Breakage] = [
        Breakage("empty merchant identifier", .merchantIdentifierMissing) { $0.merchantIdentifier = "" },
        Breakage("country not ISO 3166", .invalidCountryCode) { $0.countryCode = "XX" },
        Breakage("alpha-3 country", .invalidCountryCode) { $0.countryCode = "USA" },
        Breakage("currency not ISO 4217", .invalidCurrencyCode) { $0.currencyCode = "XYZ" },
        Breakage("no networks", .noSupportedNetworks) { $0.supportedNetworks = [] },
        Breakage("unknown network", .unknownNetwork) {
            $0.supportedNetworks.append(PaymentNetwork(rawValue: "Diners"))
        },
        Breakage("no capabilities", .noMerchantCapabilities) { $0.merchantCapabilities = [] },
        Breakage("no 3-D Secure", .threeDSecureRequired) { $0.merchantCapabilities = [.emv, .credit] },
        Breakage("no items", .noSummaryItems) { $0.paymentSummaryItems = [] },
        Breakage("item without label", .emptyLabel) { $0.paymentSummaryItems[0] = .item("", 20) },
        Breakage("shipping method without label", .emptyLabel) { $0.shippingMethods[1].label = "" },
        Breakage("cents of a cent", .tooManyFractionDigits) {
            $0.paymentSummaryItems = [
                .item("Book", Decimal(string: "19.995")!), .item("Total", Decimal(string: "19.995")!),
            ]
        },
        Breakage("fractional yen", .tooManyFractionDigits) {
            $0.currencyCode = "JPY"
            $0.paymentSummaryItems = [.item("Book", Decimal(string: "0.5")!), .item("Total", Decimal(string: "0.5")!)]
            $0.shippingMethods = []
        },
        Breakage("shipping method amount digits", .tooManyFractionDigits) {
            $0.shippingMethods[0].amount = Decimal(string: "4.999")!
        },
        Breakage("amount too large for minor units", .invalidAmount) {
            let huge = Decimal(string: "1e30")!
            $0.paymentSummaryItems = [.item("Book", huge), .item("Total", huge)]
        },
        Breakage("total not the sum", .totalMismatch, rules: .strict) {
            $0.paymentSummaryItems[2] = .item("Total", 26)
        },
        Breakage("negative total", .negativeTotal) {
            $0.paymentSummaryItems = [.item("Refund", -5), .item("Total", -5)]
        },
        Breakage("pending part, final total", .pendingTotalRequired) {
            $0.paymentSummaryItems[1] = .item("Shipping", 5, type: .pending)
        },
        Breakage("recurring and deferred", .conflictingPaymentTypes) {
            $0.recurringPaymentRequest = RecurringPaymentRequest(
                paymentDescription: "Books", regularBilling: RecurringPaymentSummaryItem(label: "Monthly", amount: 25),
                managementURL: PaymentRequestSamples.managementURL)
            $0.deferredPaymentRequest = DeferredPaymentRequest(
                paymentDescription: "Later",
                deferredBilling: DeferredPaymentSummaryItem(
                    label: "Later", amount: 25, deferredDate: Date(timeIntervalSince1970: 1_800_000_000)),
                managementURL: PaymentRequestSamples.managementURL)
        },
        Breakage("multi-token and automatic reload", .conflictingPaymentTypes) {
            $0.multiTokenContexts = [
                PaymentTokenContext(
                    merchantIdentifier: "merchant.a", externalIdentifier: "a", merchantName: "A", amount: 25)
            ]
            $0.automaticReloadPaymentRequest = AutomaticReloadPaymentRequest(
                paymentDescription: "Top-up",
                automaticReloadBilling: AutomaticReloadPaymentSummaryItem(
                    label: "Top-up", amount: 25, thresholdAmount: 5),
                managementURL: PaymentRequestSamples.managementURL)
        },
        Breakage("token contexts above the total", .tokenContextsExceedTotal) {
            $0.multiTokenContexts = [
                PaymentTokenContext(
                    merchantIdentifier: "merchant.a", externalIdentifier: "a", merchantName: "A", amount: 20),
                PaymentTokenContext(
                    merchantIdentifier: "merchant.b", externalIdentifier: "b", merchantName: "B",
                    amount: Decimal(string: "5.01")!),
            ]
        },
        Breakage("token context twice", .invalidTokenContext) {
            $0.multiTokenContexts = [
                PaymentTokenContext(
                    merchantIdentifier: "merchant.a", externalIdentifier: "a", merchantName: "A", amount: 10),
                PaymentTokenContext(
                    merchantIdentifier: "merchant.b", externalIdentifier: "a", merchantName: "B", amount: 10),
            ]
        },
        Breakage("token context without name", .invalidTokenContext) {
            $0.multiTokenContexts = [
                PaymentTokenContext(
                    merchantIdentifier: "merchant.a", externalIdentifier: "a", merchantName: "", amount: 10)
            ]
        },
        Breakage("supported country not ISO 3166", .invalidSupportedCountry) { $0.supportedCountries = ["US", "QQ"] },
        Breakage("duplicate shipping method", .duplicateShippingMethodIdentifier) {
            $0.shippingMethods[1].identifier = "ground"
        },
        Breakage("shipping range backwards", .invalidShippingMethod) {
            $0.shippingMethods[0].dateComponentsRange = try! JSONDecoder().decode(
                DateComponentsRange.self,
                from: Data(#"{"startDateComponents": "2026-11-26", "endDateComponents": "2026-11-24"}"#.utf8))
        },
        Breakage("shipping method without identifier", .invalidShippingMethod) {
            $0.shippingMethods[0].identifier = ""
        },
        Breakage("merchant category code above 9999", .invalidMerchantCategoryCode) {
            $0.merchantCategoryCode = 10_000
        },
        Breakage("recurring every 0 months", .invalidRecurrence) {
            $0.paymentSummaryItems[2] = .recurring(
                RecurringPaymentSummaryItem(label: "Total", amount: 25, intervalCount: 0))
        },
        Breakage("recurring ends before it starts", .invalidRecurrence) {
            $0.recurringPaymentRequest = RecurringPaymentRequest(
                paymentDescription: "Books",
                regularBilling: RecurringPaymentSummaryItem(
                    label: "Monthly", amount: 25, startDate: Date(timeIntervalSince1970: 1_800_000_000),
                    endDate: Date(timeIntervalSince1970: 1_700_000_000)),
                managementURL: PaymentRequestSamples.managementURL)
        },
        Breakage("negative reload threshold", .invalidReloadThreshold) {
            $0.automaticReloadPaymentRequest = AutomaticReloadPaymentRequest(
                paymentDescription: "Top-up",
                automaticReloadBilling: AutomaticReloadPaymentSummaryItem(
                    label: "Top-up", amount: 25, thresholdAmount: -1),
                managementURL: PaymentRequestSamples.managementURL)
        },
        Breakage("free cancellation after charge", .invalidDeferredPayment) {
            $0.deferredPaymentRequest = DeferredPaymentRequest(
                paymentDescription: "Stay",
                deferredBilling: DeferredPaymentSummaryItem(
                    label: "Stay", amount: 25, deferredDate: Date(timeIntervalSince1970: 1_800_000_000)),
                managementURL: PaymentRequestSamples.managementURL,
                freeCancellationDate: Date(timeIntervalSince1970: 1_800_000_001))
        },
    ]
}

@Suite("PaymentRequest validation")
struct PaymentRequestValidationTests {
    @Test("the sample request is valid")
    func sampleIsValid() throws {
        try PaymentRequestSamples.basic.validate()
    }

    @Test("each broken rule yields its own error", arguments: Breakage.all)
    func brokenRule(_ breakage: Breakage) {
        var request = PaymentRequestSamples.basic
        breakage.mutate(&request)
        let error = #expect(throws: PaymentRequestError.self) { try request.validate(breakage.rules) }
        #expect(error?.code == breakage.expected.code, "\(error?.description ?? "no error")")
        // The strict rules catch everything PassKit's do.
        if breakage.rules == .passKit {
            #expect(throws: breakage.expected) { try request.validate(.strict) }
        }
    }

    @Test("PassKit does not require the total to be the sum of the items; the strict rules do")
    func totalNotTheSum() throws {
        var request = PaymentRequestSamples.basic
        request.paymentSummaryItems = [.item("Book", 20), .item("Gift wrap", 3), .item("Total", 26)]
        try request.validate()
        try request.validate(.passKit)
        #expect(try request.totalAmount() == Amount(minorUnits: 2_600, currency: .usd))
        let error = #expect(throws: PaymentRequestError.totalMismatch) { try request.validate(.strict) }
        #expect(error?.message.contains("26") == true)
        #expect(PaymentRequest.ValidationRules() == .passKit)
        // Strict rules with every item adding up: valid.
        request.paymentSummaryItems[2] = .item("Total", 23)
        try request.validate(.strict)
    }

    @Test("every validation code has a breakage that yields it (malformedJSON comes from decoding)")
    func everyCodeCovered() {
        let covered = Set(Breakage.all.map(\.expected.code))
        let expected = Set(PaymentRequestError.Code.allCases).subtracting([.malformedJSON])
        #expect(covered == expected)
    }

    @Test(
        "discounts, a pending total over pending items, a zero total and each currency's exponent are fine",
        arguments: [
            ("USD", ["10.00", "-2.50", "7.50"], PaymentSummaryItemType.final),
            ("USD", ["10", "-10", "0"], .final),
            ("JPY", ["1200", "300", "1500"], .final),
            ("BHD", ["1.234", "0.001", "1.235"], .final),
            ("EUR", ["8.20", "1.10", "9.30"], .pending),
        ])
    func validVariants(currency: String, amounts: [String], totalType: PaymentSummaryItemType) throws {
        var request = PaymentRequestSamples.basic
        request.currencyCode = currency
        request.shippingMethods = []
        let values = amounts.map { Decimal(string: $0)! }
        request.paymentSummaryItems =
            values.dropLast().enumerated().map { index, value in
                .item("Item \(index)", value, type: totalType == .pending && index == 0 ? .pending : .final)
            } + [.item("Total", values.last!, type: totalType)]
        try request.validate()
        let total = try request.totalAmount()
        #expect(total.currency.alphabeticCode == currency)
        #expect(total.decimalValue == values.last!)
    }

    @Test("a pending total over only final items is allowed (the total itself may be an estimate)")
    func pendingTotalAlone() throws {
        var request = PaymentRequestSamples.basic
        request.paymentSummaryItems[2] = .item("Total", 25, type: .pending)
        try request.validate()
    }

    @Test("multi-token contexts adding up to exactly the total are fine")
    func contextsAtTotal() throws {
        var request = PaymentRequestSamples.basic
        request.multiTokenContexts = [
            PaymentTokenContext(
                merchantIdentifier: "merchant.a", externalIdentifier: "a", merchantName: "A", amount: 20),
            PaymentTokenContext(
                merchantIdentifier: "merchant.b", externalIdentifier: "b", merchantName: "B", amount: 5),
        ]
        try request.validate()
    }

    @Test("every PassKit network is known, with distinct raw values; lookups ignore case")
    func networks() {
        #expect(PaymentNetwork.allCases.count == Set(PaymentNetwork.allCases.map { $0.rawValue.lowercased() }).count)
        #expect(PaymentNetwork.allCases.allSatisfy { $0.isKnown })
        #expect(PaymentNetwork(caseInsensitive: "amex") == .amex)
        #expect(PaymentNetwork(caseInsensitive: "MASTERCARD") == .masterCard)
        #expect(!PaymentNetwork(rawValue: "Diners").isKnown)
        #expect(PaymentNetwork.visa.rawValue == "Visa" && PaymentNetwork.amex.rawValue == "AmEx")
    }

    @Test("merchant capabilities keep PassKit's bits")
    func capabilityBits() {
        #expect(MerchantCapability.threeDSecure.rawValue == 1)
        #expect(MerchantCapability.emv.rawValue == 2)
        #expect(MerchantCapability.credit.rawValue == 4)
        #expect(MerchantCapability.debit.rawValue == 8)
        #expect(MerchantCapability.instantFundsOut.rawValue == 128)
    }
}
