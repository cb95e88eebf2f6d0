import ApplePay
import EMV
import Foundation
import Testing

@Suite("PaymentRequest JSON")
struct PaymentRequestCodingTests {
    @Test("the example file decodes and validates")
    func exampleValidates() throws {
        let request = try PaymentRequest(json: Data(contentsOf: PaymentRequestSamples.exampleURL))
        try request.validate()
        #expect(request.currencyCode == "USD")
        #expect(request.supportedNetworks == [.visa, .masterCard, .amex, .discover])
        #expect(request.merchantCapabilities == [.threeDSecure, .credit, .debit])
        #expect(request.total?.amount == Decimal(string: "290.29"))
        #expect(request.total?.type == .pending)
        #expect(request.applicationData == Data("order-10042".utf8))
        #expect(request.shippingMethods.map(\.identifier) == ["standard", "express"])
        #expect(request.multiTokenContexts.count == 2)
        #expect(try request.totalAmount().minorUnits == 29029)
    }

    @Test("a request with every part round-trips through JSON unchanged")
    func roundTrip() throws {
        var request = PaymentRequestSamples.basic
        request.paymentSummaryItems = [
            .item("Book", Decimal(string: "19.99")!),
            .recurring(
                RecurringPaymentSummaryItem(
                    label: "Club", amount: 5, startDate: Date(timeIntervalSince1970: 1_800_000_000),
                    endDate: Date(timeIntervalSince1970: 1_900_000_000), intervalUnit: .month, intervalCount: 1)),
            .deferred(
                DeferredPaymentSummaryItem(label: "Later", amount: 1, deferredDate: Date(timeIntervalSince1970: 1_850_000_000))),
            .automaticReload(AutomaticReloadPaymentSummaryItem(label: "Top-up", amount: 2, thresholdAmount: 1)),
            .item("Total", Decimal(string: "27.99")!),
        ]
        request.shippingMethods[0].dateComponentsRange = DateComponentsRange(
            startDateComponents: DateComponents(year: 2026, month: 11, day: 24),
            endDateComponents: DateComponents(year: 2026, month: 12, day: 1))
        request.shippingType = .storePickup
        request.requiredBillingContactFields = [.postalAddress, .name]
        request.requiredShippingContactFields = [.emailAddress]
        request.billingContact = PaymentRequestSamples.visaDebit.billingContact
        request.shippingContact = PaymentRequestSamples.shippingContact
        request.supportedCountries = ["US", "GB"]
        request.applicationData = Data([0, 1, 2, 0xFF])
        request.couponCode = "SAVE"
        request.supportsCouponCode = true
        request.shippingContactEditingMode = .storePickup
        request.recurringPaymentRequest = RecurringPaymentRequest(
            paymentDescription: "Club", regularBilling: RecurringPaymentSummaryItem(label: "Club", amount: 5),
            trialBilling: RecurringPaymentSummaryItem(label: "Trial", amount: 0, intervalUnit: .day, intervalCount: 7),
            billingAgreement: "Cancel any time", managementURL: PaymentRequestSamples.managementURL,
            tokenNotificationURL: URL(string: "https://shop.example/notify"))
        request.merchantCategoryCode = 5942
        try request.validate()
        let again = try PaymentRequest(json: request.json())
        #expect(again == request)
    }

    @Test("amounts are decimal strings in JSON and stay exact")
    func amountsAreStrings() throws {
        var request = PaymentRequestSamples.basic
        request.paymentSummaryItems = [.item("A", Decimal(string: "0.10")!), .item("B", Decimal(string: "0.20")!),
            .item("Total", Decimal(string: "0.30")!)]
        let object = try JSONSerialization.jsonObject(with: request.json()) as? [String: Any]
        let items = try #require(object?["paymentSummaryItems"] as? [[String: Any]])
        #expect(items.map { $0["amount"] as? String } == ["0.1", "0.2", "0.3"])
        try PaymentRequest(json: request.json()).validate()
    }

    @Test("known networks decode in any case; unknown ones decode and then fail validation")
    func networkSpelling() throws {
        let json = try String(decoding: PaymentRequestSamples.basic.json(), as: UTF8.self)
            .replacingOccurrences(of: "\"MasterCard\"", with: "\"mastercard\"")
        #expect(try PaymentRequest(json: Data(json.utf8)).supportedNetworks == [.visa, .masterCard])
        let unknown = json.replacingOccurrences(of: "\"mastercard\"", with: "\"Diners\"")
        #expect(throws: PaymentRequestError.unknownNetwork) { try PaymentRequest(json: Data(unknown.utf8)).validate() }
    }

    @Test("malformed documents are malformedJSON naming the field", arguments: [
        (#"{"merchantIdentifier": "m"}"#, "countryCode"),
        ("not json", "the document"),
        (#"{"merchantIdentifier": "m", "countryCode": "US", "currencyCode": "USD", "supportedNetworks": ["Visa"], "merchantCapabilities": ["threeDSecure"], "paymentSummaryItems": [{"label": "T", "amount": 1.5}]}"#, "paymentSummaryItems[0].amount"),
        (#"{"merchantIdentifier": "m", "countryCode": "US", "currencyCode": "USD", "supportedNetworks": ["Visa"], "merchantCapabilities": ["threeDSecure"], "paymentSummaryItems": [{"label": "T", "amount": "1e3"}]}"#, "paymentSummaryItems[0].amount"),
        (#"{"merchantIdentifier": "m", "countryCode": "US", "currencyCode": "USD", "supportedNetworks": ["Visa"], "merchantCapabilities": ["teleport"], "paymentSummaryItems": []}"#, "merchantCapabilities"),
    ])
    func malformed(json: String, field: String) {
        let error = #expect(throws: PaymentRequestError.malformedJSON) { try PaymentRequest(json: Data(json.utf8)) }
        #expect(error?.message.contains(field) == true, "\(error?.message ?? "")")
    }

    @Test("mutated example files never crash: they decode or fail with a typed error")
    func mutatedExamples() throws {
        let original = try Data(contentsOf: PaymentRequestSamples.exampleURL)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = [UInt8](original)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            do {
                try PaymentRequest(json: Data(bytes)).validate()
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
