public import Foundation

/// The receipt of a sale, refund or verification: what may be shown or printed, never the PAN (BIN and last four
/// at most) nor any card or PIN data.
public struct Receipt: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The merchant's display name, as the payment screen showed it.
    public let merchantDisplayName: String
    /// Sale, refund or verification.
    public let purpose: ReaderSDK.PaymentScreen.Purpose
    /// The amount.
    public let amount: Decimal
    /// ISO 4217 alphabetic code.
    public let currency: String
    /// When it happened (the PSP's time when it answered, else the reader's).
    public let date: Date
    /// `APPROVED` or `DECLINED`.
    public let outcome: String
    /// The card number masked to BIN and last four (`476173******0010`), when the PSP saw the card.
    public let maskedPAN: String?
    /// The card's scheme as the PSP names it (`visa`, `mastercard`).
    public let scheme: String?
    /// The selected application's AID in hex.
    public let applicationIdentifier: String?
    /// The application's label from the card, e.g. `VISA CREDIT`.
    public let applicationLabel: String?
    /// The issuer's approval code (ISO 8583 field 38).
    public let authorizationCode: String?
    /// The issuer's response code (field 39).
    public let responseCode: String?
    /// How the cardholder was verified.
    public let cardholderVerification: CardholderVerificationMethod
    /// The PSP's payment or refund id.
    public let transactionID: String?
    /// The read's id (the reader's transaction id).
    public let readID: String?
    /// The sale's description, when the app gave one.
    public let paymentDescription: String?

    /// Creates a receipt.
    public init(
        merchantDisplayName: String, purpose: ReaderSDK.PaymentScreen.Purpose, amount: Decimal, currency: String,
        date: Date, outcome: String, maskedPAN: String?, scheme: String?, applicationIdentifier: String?,
        applicationLabel: String?, authorizationCode: String?, responseCode: String?,
        cardholderVerification: CardholderVerificationMethod, transactionID: String?, readID: String?,
        paymentDescription: String?
    ) {
        self.merchantDisplayName = merchantDisplayName
        self.purpose = purpose
        self.amount = amount
        self.currency = currency
        self.date = date
        self.outcome = outcome
        self.maskedPAN = maskedPAN
        self.scheme = scheme
        self.applicationIdentifier = applicationIdentifier
        self.applicationLabel = applicationLabel
        self.authorizationCode = authorizationCode
        self.responseCode = responseCode
        self.cardholderVerification = cardholderVerification
        self.transactionID = transactionID
        self.readID = readID
        self.paymentDescription = paymentDescription
    }

    /// The receipt's lines, as printed.
    public var lines: [String] {
        var lines = [merchantDisplayName, "\(purpose.rawValue.uppercased()) \(amount) \(currency)"]
        if let paymentDescription { lines.append(paymentDescription) }
        lines.append(ISO8601DateFormatter().string(from: date))
        if let applicationLabel { lines.append(applicationLabel) }
        if let maskedPAN { lines.append(maskedPAN) }
        if let applicationIdentifier { lines.append("AID \(applicationIdentifier)") }
        lines.append("CVM \(cardholderVerification.rawValue)")
        if let authorizationCode { lines.append("AUTH CODE \(authorizationCode)") }
        if let responseCode { lines.append("RESPONSE \(responseCode)") }
        lines.append(outcome)
        return lines
    }

    /// The lines, one per line.
    public var description: String { lines.joined(separator: "\n") }
}

/// How the cardholder was verified, as a receipt says it.
public enum CardholderVerificationMethod: String, Sendable, Hashable, Codable {
    /// No verification (under the CVM limit, or the card asked for none).
    case noCVM
    /// A PIN verified online by the issuer.
    case onlinePIN
    /// A signature on the receipt.
    case signature
    /// Verified on the cardholder's phone (CDCVM).
    case consumerDevice
    /// The card did not say (a Kernel 3 card reports no CVM results).
    case unknown
}
