import Foundation

/// A request for a merchant token for a payment charged later, as PassKit's `PKDeferredPaymentRequest`.
public struct DeferredPaymentRequest: Hashable, Sendable, Codable {
    /// What is paid later, shown on the sheet.
    public var paymentDescription: String
    /// The amount and the date it is charged.
    public var deferredBilling: DeferredPaymentSummaryItem
    /// The terms the customer agrees to, shown on the sheet.
    public var billingAgreement: String?
    /// Where the customer manages or cancels the payment.
    public var managementURL: URL
    /// Where Apple notifies the merchant of changes to the merchant token.
    public var tokenNotificationURL: URL?
    /// Until when the customer may cancel free of charge; not after the deferred date.
    public var freeCancellationDate: Date?

    /// A request from its parts.
    public init(
        paymentDescription: String, deferredBilling: DeferredPaymentSummaryItem, billingAgreement: String? = nil,
        managementURL: URL, tokenNotificationURL: URL? = nil, freeCancellationDate: Date? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.deferredBilling = deferredBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
        self.freeCancellationDate = freeCancellationDate
    }
}
