public import EMV
public import Foundation

extension PaymentRequest {
    /// Checks every rule PassKit enforces before it shows a sheet — and, with ``ValidationRules/strict``, the
    /// stricter ones a merchant opts into — throwing the first broken one.
    ///
    /// The rules, in the order checked:
    /// 1. `merchantIdentifier` is not empty; `countryCode` is ISO 3166-1 alpha-2; `currencyCode` is ISO 4217.
    /// 2. `supportedNetworks` is not empty and every network is one PassKit defines.
    /// 3. `merchantCapabilities` is not empty and includes `threeDSecure`.
    /// 4. Every code in `supportedCountries` is ISO 3166-1 alpha-2; `merchantCategoryCode` is in 0…9999.
    /// 5. There is at least one summary item, and every item and shipping method has a label.
    /// 6. Every amount — items, shipping methods, thresholds, token contexts, the recurring, reload and deferred
    ///    requests' items — has at most the currency's ISO 4217 minor-unit digits and fits 64-bit minor units.
    /// 7. The total is the last item. It is not negative, and it is pending when any item before it is pending (a
    ///    total with an unknown part is not final). Only under ``ValidationRules/strict``: it equals the sum of
    ///    every item before it (discounts are negative items; pending items count with their estimated amount).
    ///    PassKit does not require that, since the items need not break the total down completely.
    /// 8. Recurring items repeat every 1 or more units and do not end before they start; reload thresholds are
    ///    not negative; a deferred payment's free cancellation date is not after its deferred date.
    /// 9. At most one of recurring, automatic reload, deferred and multi-token (non-empty contexts) is set.
    /// 10. Token contexts have non-empty merchant identifier, external identifier and name, unique external
    ///     identifiers and non-negative amounts, whose sum is at most the total.
    /// 11. Shipping method identifiers are non-empty and unique, and date ranges do not end before they start.
    ///
    /// - Parameter rules: PassKit's (the default) or ``ValidationRules/strict``.
    /// - Throws: ``PaymentRequestError`` with the broken rule's code.
    public func validate(_ rules: ValidationRules = .passKit) throws(PaymentRequestError) {
        let currency = try validateCodes()
        try validateNetworksAndCapabilities()
        try validateItems(currency: currency, rules: rules)
        try validatePaymentTypes()
        try validateShippingMethods()
    }

    /// The total as an exact amount in minor units of the request's currency, for a token.
    ///
    /// - Throws: what ``validate(_:)`` throws, under PassKit's rules, for an invalid request.
    public func totalAmount() throws(PaymentRequestError) -> Amount {
        try validate()
        // validate() proved both exist and that the total converts.
        guard let total, let currency else { throw PaymentRequestError(code: .noSummaryItems, message: "no total") }
        return try Self.amount(total.amount, currency, "the total")
    }

    private func validateCodes() throws(PaymentRequestError) -> Currency {
        guard !merchantIdentifier.isEmpty else {
            throw PaymentRequestError(code: .merchantIdentifierMissing, message: "merchantIdentifier is empty")
        }
        guard country != nil else {
            throw PaymentRequestError(
                code: .invalidCountryCode, message: "countryCode \"\(countryCode)\" is not ISO 3166-1 alpha-2")
        }
        guard let currency else {
            throw PaymentRequestError(
                code: .invalidCurrencyCode, message: "currencyCode \"\(currencyCode)\" is not ISO 4217")
        }
        for code in (supportedCountries ?? []).sorted() where code.count != 2 || Country(alpha2: code) == nil {
            throw PaymentRequestError(
                code: .invalidSupportedCountry, message: "supportedCountries has \"\(code)\", not ISO 3166-1 alpha-2")
        }
        if let merchantCategoryCode, !(0...9999).contains(merchantCategoryCode) {
            throw PaymentRequestError(
                code: .invalidMerchantCategoryCode,
                message: "merchantCategoryCode \(merchantCategoryCode) is outside ISO 18245's 0000-9999")
        }
        return currency
    }

    private func validateNetworksAndCapabilities() throws(PaymentRequestError) {
        guard !supportedNetworks.isEmpty else {
            throw PaymentRequestError(code: .noSupportedNetworks, message: "supportedNetworks is empty")
        }
        if let unknown = supportedNetworks.first(where: { !$0.isKnown }) {
            throw PaymentRequestError(
                code: .unknownNetwork, message: "supportedNetworks has \"\(unknown)\", which PassKit does not define")
        }
        guard !merchantCapabilities.isEmpty else {
            throw PaymentRequestError(code: .noMerchantCapabilities, message: "merchantCapabilities is empty")
        }
        guard merchantCapabilities.contains(.threeDSecure) else {
            throw PaymentRequestError(
                code: .threeDSecureRequired, message: "merchantCapabilities must include threeDSecure")
        }
    }

    private func validateItems(currency: Currency, rules: ValidationRules) throws(PaymentRequestError) {
        guard let total else {
            throw PaymentRequestError(code: .noSummaryItems, message: "paymentSummaryItems is empty: no total")
        }
        for (index, item) in paymentSummaryItems.enumerated() where item.label.isEmpty {
            throw PaymentRequestError(code: .emptyLabel, message: "paymentSummaryItems[\(index)] has no label")
        }
        for (index, method) in shippingMethods.enumerated() where method.label.isEmpty {
            throw PaymentRequestError(code: .emptyLabel, message: "shippingMethods[\(index)] has no label")
        }
        for (value, field) in allAmounts() {
            _ = try Self.amount(value, currency, field)
        }
        let parts = paymentSummaryItems.dropLast()
        let sum = parts.reduce(Decimal.zero) { $0 + $1.amount }
        let last = "paymentSummaryItems[\(paymentSummaryItems.count - 1)]"
        if total.type == .final, let pending = parts.firstIndex(where: { $0.type == .pending }) {
            throw PaymentRequestError(
                code: .pendingTotalRequired,
                message: "paymentSummaryItems[\(pending)] is pending, so the total (\(last)) must be pending too")
        }
        if rules.totalEqualsSumOfItems, total.amount != sum {
            throw PaymentRequestError(
                code: .totalMismatch,
                message: "the total (\(last)) is \(total.amount), the \(parts.count) items before it add up to \(sum)")
        }
        guard total.amount >= 0 else {
            throw PaymentRequestError(code: .negativeTotal, message: "the total (\(last)) is \(total.amount)")
        }
        try validateSchedules()
    }

    /// Every amount of the request with the name of its field.
    private func allAmounts() -> [(Decimal, String)] {
        var amounts: [(Decimal, String)] = []
        for (index, item) in paymentSummaryItems.enumerated() {
            amounts.append((item.amount, "paymentSummaryItems[\(index)].amount"))
            if case .automaticReload(let reload) = item {
                amounts.append((reload.thresholdAmount, "paymentSummaryItems[\(index)].thresholdAmount"))
            }
        }
        for (index, method) in shippingMethods.enumerated() {
            amounts.append((method.amount, "shippingMethods[\(index)].amount"))
        }
        for (index, context) in multiTokenContexts.enumerated() {
            amounts.append((context.amount, "multiTokenContexts[\(index)].amount"))
        }
        if let recurring = recurringPaymentRequest {
            amounts.append((recurring.regularBilling.amount, "recurringPaymentRequest.regularBilling.amount"))
            if let trial = recurring.trialBilling {
                amounts.append((trial.amount, "recurringPaymentRequest.trialBilling.amount"))
            }
        }
        if let reload = automaticReloadPaymentRequest?.automaticReloadBilling {
            amounts.append((reload.amount, "automaticReloadPaymentRequest.automaticReloadBilling.amount"))
            amounts.append(
                (reload.thresholdAmount, "automaticReloadPaymentRequest.automaticReloadBilling.thresholdAmount"))
        }
        if let deferred = deferredPaymentRequest?.deferredBilling {
            amounts.append((deferred.amount, "deferredPaymentRequest.deferredBilling.amount"))
        }
        return amounts
    }

    private func validateSchedules() throws(PaymentRequestError) {
        var recurring: [(RecurringPaymentSummaryItem, String)] = []
        var reloads: [(AutomaticReloadPaymentSummaryItem, String)] = []
        for (index, item) in paymentSummaryItems.enumerated() {
            if case .recurring(let value) = item { recurring.append((value, "paymentSummaryItems[\(index)]")) }
            if case .automaticReload(let value) = item { reloads.append((value, "paymentSummaryItems[\(index)]")) }
        }
        if let request = recurringPaymentRequest {
            recurring.append((request.regularBilling, "recurringPaymentRequest.regularBilling"))
            if let trial = request.trialBilling { recurring.append((trial, "recurringPaymentRequest.trialBilling")) }
        }
        if let reload = automaticReloadPaymentRequest?.automaticReloadBilling {
            reloads.append((reload, "automaticReloadPaymentRequest.automaticReloadBilling"))
        }
        for (item, field) in recurring {
            guard item.intervalCount >= 1 else {
                throw PaymentRequestError(
                    code: .invalidRecurrence, message: "\(field).intervalCount is \(item.intervalCount), not 1 or more")
            }
            if let start = item.startDate, let end = item.endDate, end < start {
                throw PaymentRequestError(code: .invalidRecurrence, message: "\(field) ends before it starts")
            }
        }
        for (item, field) in reloads where item.thresholdAmount < 0 {
            throw PaymentRequestError(code: .invalidReloadThreshold, message: "\(field).thresholdAmount is negative")
        }
        if let deferred = deferredPaymentRequest, let cancel = deferred.freeCancellationDate,
            cancel > deferred.deferredBilling.deferredDate
        {
            throw PaymentRequestError(
                code: .invalidDeferredPayment,
                message: "deferredPaymentRequest.freeCancellationDate is after deferredBilling.deferredDate")
        }
    }

    private func validatePaymentTypes() throws(PaymentRequestError) {
        let set = [
            recurringPaymentRequest != nil ? "recurringPaymentRequest" : nil,
            automaticReloadPaymentRequest != nil ? "automaticReloadPaymentRequest" : nil,
            deferredPaymentRequest != nil ? "deferredPaymentRequest" : nil,
            multiTokenContexts.isEmpty ? nil : "multiTokenContexts",
        ].compactMap { $0 }
        guard set.count <= 1 else {
            throw PaymentRequestError(
                code: .conflictingPaymentTypes, message: "at most one may be set, found \(set.joined(separator: ", "))")
        }
        var externalIdentifiers: Set<String> = []
        for (index, context) in multiTokenContexts.enumerated() {
            let field = "multiTokenContexts[\(index)]"
            guard !context.merchantIdentifier.isEmpty, !context.externalIdentifier.isEmpty,
                !context.merchantName.isEmpty
            else {
                throw PaymentRequestError(
                    code: .invalidTokenContext,
                    message: "\(field) needs a merchantIdentifier, an externalIdentifier and a merchantName")
            }
            guard context.amount >= 0 else {
                throw PaymentRequestError(code: .invalidTokenContext, message: "\(field).amount is negative")
            }
            guard externalIdentifiers.insert(context.externalIdentifier).inserted else {
                throw PaymentRequestError(
                    code: .invalidTokenContext, message: "\(field).externalIdentifier is used by an earlier context")
            }
        }
        let contextSum = multiTokenContexts.reduce(Decimal.zero) { $0 + $1.amount }
        if let total, !multiTokenContexts.isEmpty, contextSum > total.amount {
            throw PaymentRequestError(
                code: .tokenContextsExceedTotal,
                message: "the token contexts add up to \(contextSum), more than the total \(total.amount)")
        }
    }

    private func validateShippingMethods() throws(PaymentRequestError) {
        var identifiers: Set<String> = []
        for (index, method) in shippingMethods.enumerated() {
            let field = "shippingMethods[\(index)]"
            guard !method.identifier.isEmpty else {
                throw PaymentRequestError(code: .invalidShippingMethod, message: "\(field).identifier is empty")
            }
            guard identifiers.insert(method.identifier).inserted else {
                throw PaymentRequestError(
                    code: .duplicateShippingMethodIdentifier,
                    message: "\(field).identifier \"\(method.identifier)\" is used by an earlier method")
            }
            if let range = method.dateComponentsRange, !range.isOrdered {
                throw PaymentRequestError(
                    code: .invalidShippingMethod, message: "\(field).dateComponentsRange ends before it starts")
            }
        }
    }

    /// `value` as minor units of `currency`, mapping EMV's amount errors to the request's.
    static func amount(_ value: Decimal, _ currency: Currency, _ field: String) throws(PaymentRequestError)
        -> Amount
    {
        do {
            return try Amount(value, currency: currency)
        } catch ValueError.tooManyFractionDigits {
            throw PaymentRequestError(
                code: .tooManyFractionDigits,
                message: "\(field) \(value) has more than the \(currency.exponent) fraction digits of \(currency)")
        } catch {
            throw PaymentRequestError(code: .invalidAmount, message: "\(field) is not a representable amount")
        }
    }
}
