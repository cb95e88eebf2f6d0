public import Foundation

/// The body of `POST /v1/applepay/payments`: an Apple Pay token from the merchant's app, and the amount and
/// currency the merchant expects it to carry.
public struct CreateApplePayPaymentRequest: Sendable, Hashable, Codable {
    /// The token: a whole `PKPaymentToken` object or its `paymentData` object.
    public var token: ApplePayTokenJSON
    /// The amount in the currency's minor units; must equal the token's.
    public var amount: Int
    /// ISO 4217 alphabetic currency code; must equal the token's.
    public var currency: String
    /// Capture at once (default) or later.
    public var captureMethod: CaptureMethod?
    /// The `applicationData` the app set on its payment request, base64; when given, its SHA-256 must be the
    /// token header's `applicationData`.
    public var applicationData: String?

    /// Creates a request.
    public init(
        token: ApplePayTokenJSON, amount: Int, currency: String, captureMethod: CaptureMethod? = nil,
        applicationData: String? = nil
    ) {
        self.token = token
        self.amount = amount
        self.currency = currency
        self.captureMethod = captureMethod
        self.applicationData = applicationData
    }
}
