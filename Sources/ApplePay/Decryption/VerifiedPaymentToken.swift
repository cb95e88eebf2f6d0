public import Foundation

/// A token that passed every check, with its decrypted payment data.
///
/// Its description shows the masked account number only.
public struct VerifiedPaymentToken: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The payment data, checked and typed.
    public let payment: DecryptedPayment
    /// The payment data as the decrypted JSON had it (the account number in clear: handle with care).
    public let payload: PaymentPayload
    /// The encryption scheme of the token.
    public let version: PaymentData.Version
    /// The header's transactionId (hex, as sent).
    public let transactionIdentifier: String
    /// The CMS signing time: when Apple signed the token.
    public let signingTime: Date
    /// The header's publicKeyHash: which merchant key decrypted it.
    public let publicKeyHash: String

    /// A verified token from its parts.
    public init(
        payment: DecryptedPayment, payload: PaymentPayload, version: PaymentData.Version,
        transactionIdentifier: String, signingTime: Date, publicKeyHash: String
    ) {
        self.payment = payment
        self.payload = payload
        self.version = version
        self.transactionIdentifier = transactionIdentifier
        self.signingTime = signingTime
        self.publicKeyHash = publicKeyHash
    }

    /// Version, transaction, signing time and the masked payment.
    public var description: String {
        "VerifiedPaymentToken(\(version.rawValue), transaction \(transactionIdentifier), signed \(signingTime), \(payment))"
    }

    /// Reflection shows the description only.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": description], displayStyle: .struct) }
}
