public import EMV
public import Foundation

/// What an authorized payment asks of the token service: which merchant, how much, the app's data to bind, and
/// which payload the merchant's processor takes. A `PaymentRequest` reduces to this once the user authorizes.
public struct TokenRequest: Hashable, Sendable {
    /// The merchant identifier the payment processing certificate was issued for, e.g. "merchant.com.example".
    public var merchantIdentifier: String
    /// The grand total, in minor units of its currency.
    public var amount: Amount
    /// The app's data to bind to the token; its SHA-256 goes into the header.
    public var applicationData: Data?
    /// Which payload to encrypt: a 3DSecure cryptogram (merchant capability threeDSecure) or EMV data.
    public var payloadKind: PaymentPayload.DataType

    /// A request from its parts.
    public init(
        merchantIdentifier: String, amount: Amount, applicationData: Data? = nil,
        payloadKind: PaymentPayload.DataType = .threeDSecure
    ) {
        self.merchantIdentifier = merchantIdentifier
        self.amount = amount
        self.applicationData = applicationData
        self.payloadKind = payloadKind
    }
}
