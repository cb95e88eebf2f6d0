public import EMV
public import Foundation

/// What the token service asks the issuer's token vault (or a test closure) to authenticate a payment.
public struct CryptogramRequest: Hashable, Sendable, CustomStringConvertible {
    /// The device account number the cryptogram is for.
    public var accountNumber: PAN
    /// The device account's expiry.
    public var expiry: ExpiryDate
    /// The amount and currency the cryptogram covers.
    public var amount: Amount
    /// The token's transaction identifier (the header's `transactionId`, as bytes).
    public var transactionIdentifier: [UInt8]
    /// When the payment is authorized (the signing time).
    public var date: Date
    /// The merchant identifier the payment is for.
    public var merchantIdentifier: String
    /// Which payload the cryptogram goes into.
    public var payloadKind: PaymentPayload.DataType

    /// A request from its parts.
    public init(
        accountNumber: PAN, expiry: ExpiryDate, amount: Amount, transactionIdentifier: [UInt8], date: Date,
        merchantIdentifier: String, payloadKind: PaymentPayload.DataType
    ) {
        self.accountNumber = accountNumber
        self.expiry = expiry
        self.amount = amount
        self.transactionIdentifier = transactionIdentifier
        self.date = date
        self.merchantIdentifier = merchantIdentifier
        self.payloadKind = payloadKind
    }

    /// The masked account number, the amount and the payload kind.
    public var description: String {
        "CryptogramRequest(\(accountNumber.masked), \(amount), \(payloadKind.rawValue))"
    }
}

/// The authentication data a payload carries: a 3-D Secure online payment cryptogram with its ECI, or EMV data.
///
/// The sending side of ``DecryptedPayment/Credential``, with the same cases; its description and reflection name
/// the kind only, because cryptograms never appear in logs.
public enum DeviceCryptogram: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// `paymentData.onlinePaymentCryptogram` (bytes; base64 in the payload) and `eciIndicator` (absent for some
    /// networks).
    case threeDSecure(onlinePaymentCryptogram: [UInt8], eciIndicator: String?)
    /// `paymentData.emvData` (bytes; base64 in the payload) and `encryptedPINData` (bytes; hex in the payload),
    /// when a PIN was entered.
    case emv(emvData: [UInt8], encryptedPINData: [UInt8]?)

    /// The payload kind this cryptogram belongs in.
    public var payloadKind: PaymentPayload.DataType {
        switch self {
        case .threeDSecure: .threeDSecure
        case .emv: .emv
        }
    }

    /// The kind only.
    public var description: String { "DeviceCryptogram(\(payloadKind.rawValue))" }

    /// The kind only, so `dump` shows no cryptogram either.
    public var customMirror: Mirror { Mirror(self, children: ["kind": payloadKind.rawValue], displayStyle: .enum) }
}

/// Where the token service gets a payment's cryptogram: the issuer's token vault in the end-to-end flow, a closure
/// in tests.
public typealias CryptogramSource = @Sendable (CryptogramRequest) async throws -> DeviceCryptogram
