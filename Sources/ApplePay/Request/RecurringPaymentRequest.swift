import Foundation

/// A request for a merchant token for recurring payments, as PassKit's `PKRecurringPaymentRequest`.
public struct RecurringPaymentRequest: Hashable, Sendable, Codable {
    /// What the customer subscribes to, shown on the sheet.
    public var paymentDescription: String
    /// The regular charge.
    public var regularBilling: RecurringPaymentSummaryItem
    /// A trial period's charge before the regular one, if any.
    public var trialBilling: RecurringPaymentSummaryItem?
    /// The terms the customer agrees to, shown on the sheet.
    public var billingAgreement: String?
    /// Where the customer manages or cancels the subscription.
    public var managementURL: URL
    /// Where Apple notifies the merchant of changes to the merchant token.
    public var tokenNotificationURL: URL?

    /// A request from its parts.
    public init(
        paymentDescription: String, regularBilling: RecurringPaymentSummaryItem,
        trialBilling: RecurringPaymentSummaryItem? = nil, billingAgreement: String? = nil, managementURL: URL,
        tokenNotificationURL: URL? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.regularBilling = regularBilling
        self.trialBilling = trialBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
    }
}
