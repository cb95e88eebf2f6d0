import Foundation

/// A request for a merchant token that reloads a stored-value account, as PassKit's
/// `PKAutomaticReloadPaymentRequest`.
public struct AutomaticReloadPaymentRequest: Hashable, Sendable, Codable {
    /// What is reloaded, shown on the sheet.
    public var paymentDescription: String
    /// The reload amount and its threshold.
    public var automaticReloadBilling: AutomaticReloadPaymentSummaryItem
    /// The terms the customer agrees to, shown on the sheet.
    public var billingAgreement: String?
    /// Where the customer manages or cancels the reloads.
    public var managementURL: URL
    /// Where Apple notifies the merchant of changes to the merchant token.
    public var tokenNotificationURL: URL?

    /// A request from its parts.
    public init(
        paymentDescription: String, automaticReloadBilling: AutomaticReloadPaymentSummaryItem,
        billingAgreement: String? = nil, managementURL: URL, tokenNotificationURL: URL? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.automaticReloadBilling = automaticReloadBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
    }
}
