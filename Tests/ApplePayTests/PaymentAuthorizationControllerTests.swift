import ApplePay
import EMV
import Foundation
import Testing

/// A merchant that prices the order from what the sheet tells it, and records what it was told.
actor TestMerchant: PaymentAuthorizationControllerDelegate {
    static let bookPrice: Decimal = 20
    static let creditSurcharge = Decimal(string: "0.50")!

    var creditCard = false
    var shipping: Decimal = 5
    var discount: Decimal = 0
    var contactsSeen: [Contact] = []
    var paymentsSeen: [Payment] = []
    var finishCount = 0
    /// The result the next authorization gets; success when nil.
    var nextResult: PaymentAuthorizationResult?
    /// An update to return instead of the computed one, once.
    var forcedUpdate: PaymentRequestUpdate?

    func failNextAuthorization(with errors: [PaymentError]) {
        nextResult = PaymentAuthorizationResult(status: .failure, errors: errors)
    }
    /// Answers the next authorization the older way, with a completion status.
    func answerNextAuthorization(_ status: PaymentAuthorizationStatus) {
        nextResult = PaymentAuthorizationResult(status)
    }
    func forceUpdate(_ update: PaymentRequestUpdate) { forcedUpdate = update }

    /// Book, shipping, optional surcharge and discount, and the total of them.
    func items() -> [SummaryItem] {
        var items: [SummaryItem] = [.item("Book", Self.bookPrice), .item("Shipping", shipping)]
        if creditCard { items.append(.item("Credit card surcharge", Self.creditSurcharge)) }
        if discount != 0 { items.append(.item("Coupon", -discount)) }
        let total = items.reduce(Decimal.zero) { $0 + $1.amount }
        return items + [.item("Contactless Books", total)]
    }

    private func update(errors: [PaymentError] = []) -> PaymentRequestUpdate {
        if let forced = forcedUpdate {
            forcedUpdate = nil
            return forced
        }
        return PaymentRequestUpdate(paymentSummaryItems: items(), errors: errors)
    }

    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectPaymentMethod paymentMethod: PaymentMethod
    ) async -> PaymentRequestPaymentMethodUpdate {
        creditCard = paymentMethod.type == .credit
        return update()
    }

    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectShippingContact contact: Contact
    ) async -> PaymentRequestShippingContactUpdate {
        contactsSeen.append(contact)
        guard let address = contact.postalAddress else {
            return update(errors: [PaymentRequest.paymentContactInvalidError(withContactField: .postalAddress)])
        }
        if address.isoCountryCode == "FR" {
            return update(errors: [PaymentRequest.paymentShippingAddressUnserviceableError()])
        }
        if address.postalCode.isEmpty {
            return update(errors: [PaymentRequest.paymentShippingAddressInvalidError(withKey: "postalCode")])
        }
        return update()
    }

    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didSelectShippingMethod shippingMethod: ShippingMethod
    ) async -> PaymentRequestShippingMethodUpdate {
        shipping = shippingMethod.amount
        return update()
    }

    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didChangeCouponCode couponCode: String
    ) async -> PaymentRequestCouponCodeUpdate {
        switch couponCode {
        case "SAVE5":
            discount = 5
            return update()
        case "SUMMER2020":
            discount = 0
            return update(errors: [PaymentRequest.paymentCouponCodeExpiredError()])
        default:
            discount = 0
            return update(errors: [PaymentRequest.paymentCouponCodeInvalidError()])
        }
    }

    func paymentAuthorizationController(
        _ controller: PaymentAuthorizationController, didAuthorizePayment payment: Payment
    ) async -> PaymentAuthorizationResult {
        paymentsSeen.append(payment)
        defer { nextResult = nil }
        return nextResult ?? PaymentAuthorizationResult(status: .success)
    }

    func paymentAuthorizationControllerDidFinish(_ controller: PaymentAuthorizationController) async {
        finishCount += 1
    }
}

/// A token maker that records what it was asked and returns a placeholder token (the real one is the token
/// service's).
actor TokenRecorder {
    var requests: [AuthorizedPayment] = []
    var failing = false

    struct Failure: Error {}

    func setFailing(_ value: Bool) { failing = value }

    func make(_ payment: AuthorizedPayment) throws -> PaymentToken {
        if failing { throw Failure() }
        requests.append(payment)
        return PaymentToken(
            paymentData: PaymentData(
                version: "EC_v1", data: "AA==", signature: "AA==",
                header: PaymentData.Header(publicKeyHash: "AA==", transactionId: "\(requests.count)")),
            paymentMethod: payment.paymentMethod.tokenDescription, transactionIdentifier: "\(requests.count)")
    }
}

@Suite("PaymentAuthorizationController")
struct PaymentAuthorizationControllerTests {
    typealias Samples = PaymentRequestSamples

    static func make(
        _ request: PaymentRequest = Samples.basic, wallet: SimulatedWallet = Samples.wallet
    ) -> (PaymentAuthorizationController, TestMerchant, TokenRecorder) {
        let merchant = TestMerchant()
        let tokens = TokenRecorder()
        var request = request
        request.supportsCouponCode = true
        let controller = PaymentAuthorizationController(
            paymentRequest: request, wallet: wallet, delegate: merchant, tokenMaker: { try await tokens.make($0) })
        return (controller, merchant, tokens)
    }

    @Test("the happy path: card, contact, method, coupon, authorize → token for the final total, full contacts")
    func happyPath() async throws {
        let (controller, merchant, tokens) = Self.make()
        let outcome = try await controller.run([
            .selectPaymentMethod(cardID: "mc-credit"),
            .selectShippingContact(Samples.shippingContact),
            .selectShippingMethod(identifier: "air"),
            .enterCouponCode("SAVE5"),
            .authorize,
        ])
        // 20 book + 15 air + 0.50 credit surcharge - 5 coupon
        let expectedTotal = Decimal(string: "30.50")!
        guard case .authorized(let payment) = outcome else {
            Issue.record("not authorized: \(outcome)")
            return
        }
        #expect(await controller.paymentRequest.total?.amount == expectedTotal)
        #expect(await controller.phase == .finished)
        let made = try #require(await tokens.requests.first)
        #expect(made.amount == Amount(minorUnits: 3050, currency: .usd))
        #expect(made.card.id == "mc-credit")
        #expect(made.shippingMethod?.identifier == "air")
        #expect(made.request.couponCode == "SAVE5")
        #expect(payment.shippingContact == Samples.shippingContact)
        #expect(payment.paymentMethod.displayName == "Mastercard 4444")
        #expect(payment.token.paymentMethod?.network == "MasterCard")
        #expect(await merchant.paymentsSeen.first?.shippingContact == Samples.shippingContact)
        #expect(await merchant.finishCount == 1)
        #expect(await controller.transcript.last == .didFinish(cancelled: false))
    }

    @Test("presenting preselects the first eligible card and tells the delegate; items follow the card")
    func paymentMethodUpdate() async throws {
        let (controller, merchant, _) = Self.make()
        try await controller.present()
        #expect(await controller.selectedCard?.id == "visa-debit")
        #expect(await controller.paymentRequest.total?.amount == 25)
        try await controller.perform(.selectPaymentMethod(cardID: "mc-credit"))
        #expect(await merchant.creditCard)
        #expect(await controller.paymentRequest.total?.amount == Decimal(string: "25.50"))
        try await controller.perform(.selectPaymentMethod(cardID: "visa-debit"))
        #expect(await controller.paymentRequest.total?.amount == 25)
    }

    @Test("the shipping method update recomputes the total")
    func shippingMethodUpdate() async throws {
        let (controller, _, _) = Self.make()
        try await controller.present()
        #expect(await controller.shippingMethod?.identifier == "ground")
        try await controller.perform(.selectShippingMethod(identifier: "air"))
        #expect(await controller.shippingMethod?.identifier == "air")
        #expect(await controller.paymentRequest.total?.amount == 35)
        await #expect(throws: AuthorizationError.unknownShippingMethod) {
            try await controller.perform(.selectShippingMethod(identifier: "teleport"))
        }
    }

    @Test("the delegate sees the shipping contact redacted; the token maker and the payment get it whole")
    func redaction() async throws {
        let (controller, merchant, tokens) = Self.make()
        _ = try await controller.run([.selectShippingContact(Samples.shippingContact), .authorize])
        let seen = try #require(await merchant.contactsSeen.first)
        #expect(seen.name == nil && seen.emailAddress == nil && seen.phoneNumber == nil)
        let address = try #require(seen.postalAddress)
        #expect(address.street.isEmpty && address.subLocality.isEmpty && address.subAdministrativeArea.isEmpty)
        #expect(address.city == "London" && address.state == "England" && address.isoCountryCode == "GB")
        #expect(address.country == "United Kingdom")
        #expect(address.postalCode == "NW1")
        #expect(await tokens.requests.first?.shippingContact == Samples.shippingContact)
        #expect(!String(describing: await controller.transcript).contains("Baker"))
    }

    @Test(
        "postal codes are cut to Apple's prefixes",
        arguments: [
            ("GB", "SW1A 1AA", "SW1A"), ("GB", "M11AE", "M1"), ("CA", "K1A 0B1", "K1A"), ("US", "95014-2083", "95014"),
            ("DE", "10115", "10115"),
        ])
    func postalCodePrefix(country: String, code: String, expected: String) {
        let contact = Contact(postalAddress: PostalAddress(postalCode: code, isoCountryCode: country))
        #expect(contact.redacted().postalAddress?.postalCode == expected)
    }

    @Test(
        "each PaymentError code reaches the sheet and blocks authorization until resolved",
        arguments: [
            (
                UserAction.selectShippingContact(
                    Contact(postalAddress: PostalAddress(city: "Paris", isoCountryCode: "FR"))),
                PaymentError.shippingAddressUnserviceable
            ),
            (
                .selectShippingContact(Contact(postalAddress: PostalAddress(city: "Leeds", isoCountryCode: "GB"))),
                .shippingContactInvalid
            ),
            (.selectShippingContact(Contact(emailAddress: "x@example.com")), .shippingContactInvalid),
            (.enterCouponCode("BOGUS"), .couponCodeInvalid),
            (.enterCouponCode("SUMMER2020"), .couponCodeExpired),
        ])
    func paymentErrors(action: UserAction, expected: PaymentError) async throws {
        let (controller, _, tokens) = Self.make()
        try await controller.present()
        try await controller.perform(action)
        #expect(await controller.errors == [expected])
        #expect(await controller.transcript.contains(.updated(total: 25, errors: [expected.code])))
        await #expect(throws: AuthorizationError.unresolvedErrors) { try await controller.perform(.authorize) }
        #expect(await tokens.requests.isEmpty)
        // Resolving it (a deliverable contact, a good coupon) lets the customer pay.
        try await controller.perform(
            expected.code == .couponCodeInvalid || expected.code == .couponCodeExpired
                ? .enterCouponCode("SAVE5") : .selectShippingContact(Samples.shippingContact))
        #expect(await controller.errors.isEmpty)
        try await controller.perform(.authorize)
        guard case .authorized = await controller.outcome else {
            Issue.record("not authorized")
            return
        }
    }

    @Test("contact errors carry the contact field and postal address key")
    func contactErrorDetails() {
        let invalid = PaymentRequest.paymentShippingAddressInvalidError(withKey: "postalCode")
        #expect(invalid.code == .shippingContactInvalid && invalid.contactField == .postalAddress)
        #expect(invalid.postalAddressKey == "postalCode")
        let billing = PaymentRequest.paymentBillingAddressInvalidError(withKey: "street")
        #expect(billing.code == .billingContactInvalid && billing.postalAddressKey == "street")
        let email = PaymentRequest.paymentContactInvalidError(withContactField: .emailAddress)
        #expect(email.contactField == .emailAddress)
    }

    @Test("a failed authorization keeps the sheet open with its errors; fixing them lets a second try succeed")
    func failureThenRetry() async throws {
        let (controller, merchant, tokens) = Self.make()
        await merchant.failNextAuthorization(with: [PaymentRequest.paymentBillingAddressInvalidError(withKey: "street")]
        )
        try await controller.present()
        try await controller.perform(.authorize)
        #expect(await controller.phase == .presented)
        #expect(await controller.errors == [PaymentError.billingContactInvalid])
        #expect(await merchant.finishCount == 0)
        await #expect(throws: AuthorizationError.unresolvedErrors) { try await controller.perform(.authorize) }
        try await controller.perform(.selectPaymentMethod(cardID: "visa-debit"))
        try await controller.perform(.authorize)
        #expect(await tokens.requests.count == 2)
        #expect(await controller.phase == .finished)
    }

    @Test("a second authorization after success is refused, and so is any other action")
    func secondAuthorizeRefused() async throws {
        let (controller, merchant, tokens) = Self.make()
        _ = try await controller.run([.authorize])
        await #expect(throws: AuthorizationError.alreadyAuthorized) { try await controller.perform(.authorize) }
        await #expect(throws: AuthorizationError.finished) { try await controller.perform(.cancel) }
        #expect(await tokens.requests.count == 1)
        #expect(await merchant.paymentsSeen.count == 1)
        #expect(await merchant.finishCount == 1)
    }

    @Test("cancel works at every stage and finishes exactly once without a token", arguments: 0...5)
    func cancelAtEachStage(stage: Int) async throws {
        let (controller, merchant, tokens) = Self.make()
        if stage == 5 { await merchant.failNextAuthorization(with: []) }
        let before: [UserAction] = [
            .selectPaymentMethod(cardID: "mc-credit"), .selectShippingContact(Samples.shippingContact),
            .selectShippingMethod(identifier: "air"), .enterCouponCode("SAVE5"), .authorize,
        ]
        let outcome = try await controller.run(Array(before.prefix(stage)) + [.cancel])
        #expect(outcome == .cancelled)
        #expect(await merchant.finishCount == 1)
        #expect(await controller.transcript.last == .didFinish(cancelled: true))
        #expect(await tokens.requests.count == (stage == 5 ? 1 : 0))
        await #expect(throws: AuthorizationError.finished) { try await controller.perform(.authorize) }
    }

    @Test("dismiss closes an open sheet once; the merchant hears of it")
    func dismiss() async throws {
        let (controller, merchant, _) = Self.make()
        try await controller.present()
        await controller.dismiss()
        await controller.dismiss()
        #expect(await controller.outcome == .dismissed)
        #expect(await merchant.finishCount == 1)
    }

    @Test("an invalid update is refused and the old request kept; a total that is not the sum is not invalid")
    func invalidUpdate() async throws {
        let (controller, merchant, tokens) = Self.make()
        try await controller.present()
        await merchant.forceUpdate(
            PaymentRequestUpdate(paymentSummaryItems: [.item("Book", 20), .item("Refund", -30), .item("Total", -10)]))
        let error = await #expect(throws: AuthorizationError.invalidUpdate) {
            try await controller.perform(.selectShippingMethod(identifier: "air"))
        }
        #expect(error?.underlying?.code == .negativeTotal)
        #expect(await controller.paymentRequest.total?.amount == 25)
        #expect(await controller.shippingMethod?.identifier == "ground")
        // PassKit shows items that do not break the total down completely; the token is for the total.
        await merchant.forceUpdate(PaymentRequestUpdate(paymentSummaryItems: [.item("Book", 20), .item("Total", 99)]))
        try await controller.perform(.selectShippingMethod(identifier: "air"))
        #expect(await controller.paymentRequest.total?.amount == 99)
        try await controller.perform(.authorize)
        #expect(await tokens.requests.first?.amount == Amount(minorUnits: 9_900, currency: .usd))
    }

    @Test("an update may replace the shipping methods; a vanished selection falls back to the first")
    func shippingMethodsReplaced() async throws {
        let (controller, merchant, _) = Self.make()
        try await controller.present()
        try await controller.perform(.selectShippingMethod(identifier: "air"))
        await merchant.forceUpdate(
            PaymentRequestUpdate(
                paymentSummaryItems: [.item("Book", 20), .item("Pickup", 0), .item("Total", 20)],
                shippingMethods: [ShippingMethod(identifier: "pickup", label: "Pickup", amount: 0)]))
        try await controller.perform(.selectShippingContact(Samples.shippingContact))
        #expect(await controller.shippingMethod?.identifier == "pickup")
        #expect(await controller.paymentRequest.total?.amount == 20)
    }

    @Test("presenting refuses invalid requests, devices without Apple Pay and wallets without a usable card")
    func presentRefusals() async throws {
        var broken = Samples.basic
        broken.currencyCode = "XYZ"
        let error = await #expect(throws: AuthorizationError.invalidRequest) { try await Self.make(broken).0.present() }
        #expect(error?.underlying?.code == .invalidCurrencyCode)
        await #expect(throws: AuthorizationError.paymentsUnavailable) {
            try await Self.make(wallet: SimulatedWallet(deviceSupportsApplePay: false, cards: [Samples.visaDebit]))
                .0.present()
        }
        await #expect(throws: AuthorizationError.noEligiblePaymentMethod) {
            try await Self.make(wallet: SimulatedWallet(cards: [Samples.amexCredit])).0.present()
        }
        let (controller, _, _) = Self.make()
        await #expect(throws: AuthorizationError.notPresented) { try await controller.perform(.authorize) }
        try await controller.present()
        await #expect(throws: AuthorizationError.alreadyPresented) { try await controller.present() }
    }

    @Test("actions the sheet does not allow are refused")
    func refusedActions() async throws {
        var pickup = Samples.basic
        pickup.shippingContactEditingMode = .storePickup
        let (controller, _, _) = Self.make(pickup)
        try await controller.present()
        await #expect(throws: AuthorizationError.shippingContactNotEditable) {
            try await controller.perform(.selectShippingContact(Samples.shippingContact))
        }
        await #expect(throws: AuthorizationError.paymentMethodUnavailable) {
            try await controller.perform(.selectPaymentMethod(cardID: "amex"))
        }
        let noCoupons = PaymentAuthorizationController(
            paymentRequest: Samples.basic, wallet: Samples.wallet, delegate: TestMerchant(),
            tokenMaker: { try await TokenRecorder().make($0) })
        try await noCoupons.present()
        await #expect(throws: AuthorizationError.couponCodeNotSupported) {
            try await noCoupons.perform(.enterCouponCode("SAVE5"))
        }
    }

    @Test("required contact fields must be present at authorization")
    func requiredFields() async throws {
        var request = Samples.basic
        request.requiredShippingContactFields = [.postalAddress, .phoneNumber]
        let (controller, _, _) = Self.make(request)
        try await controller.present()
        await #expect(throws: AuthorizationError.missingContactField) { try await controller.perform(.authorize) }
        try await controller.perform(
            .selectShippingContact(Contact(postalAddress: Samples.shippingContact.postalAddress)))
        await #expect(throws: AuthorizationError.missingContactField) { try await controller.perform(.authorize) }
        try await controller.perform(.selectShippingContact(Samples.shippingContact))
        try await controller.perform(.authorize)
        #expect(await controller.phase == .finished)
    }

    @Test("a failing token maker leaves the sheet open; no payment reaches the merchant")
    func tokenFailure() async throws {
        let (controller, merchant, tokens) = Self.make()
        await tokens.setFailing(true)
        try await controller.present()
        await #expect(throws: AuthorizationError.tokenUnavailable) { try await controller.perform(.authorize) }
        #expect(await merchant.paymentsSeen.isEmpty)
        #expect(await controller.phase == .presented)
        await tokens.setFailing(false)
        try await controller.perform(.authorize)
        #expect(await merchant.paymentsSeen.count == 1)
    }

    @Test("the billing contact comes from the request, else the card, and reaches the merchant whole")
    func billingContact() async throws {
        let (controller, merchant, _) = Self.make()
        _ = try await controller.run([.authorize])
        #expect(await merchant.paymentsSeen.first?.billingContact == Samples.visaDebit.billingContact)
        #expect(await merchant.paymentsSeen.first?.paymentMethod.billingAddress == Samples.visaDebit.billingContact)
        // Before authorization the delegate saw the card's billing address redacted.
        let selected = await controller.transcript.compactMap { event -> PaymentMethod? in
            if case .didSelectPaymentMethod(let method) = event { return method }
            return nil
        }
        #expect(selected.first?.billingAddress == Samples.visaDebit.billingContact?.redacted())
        #expect(selected.first?.billingAddress?.postalAddress?.street == "")
        #expect(selected.first?.billingAddress?.postalAddress?.postalCode == "95014")
    }
}
