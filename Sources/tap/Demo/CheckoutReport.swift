import EMV
import Foundation
import GatewayAPI
import TapToPay
import Terminal

/// What `tap demo` shows about a checkout, as data: text for people, JSON (`--json`) for scripts. Card data appears
/// only as the PSP returns it (BIN and last four); the reader's sealed data and PIN block never do.
struct CheckoutReport: Encodable {
    /// The PIN the issuer asked for after the read.
    struct PIN: Encodable {
        /// Who asked: the issuer (response 65 or 55 through the PSP).
        var requestedBy: String
        /// Whether the cardholder entered it (rather than bypassing).
        var entered: Bool
        /// The payment's status after the PIN went to the PSP.
        var status: String
    }

    /// What the PSP answered.
    struct Authorization: Encodable {
        var paymentId: String
        var status: String
        var responseCode: String?
        var approvalCode: String?
        var arpcReturned: Bool
        var failureCode: String?
    }

    /// The customer's receipt of an approved payment.
    struct Receipt: Encodable {
        var merchant: String
        var date: String
        var card: String
        var entryMode: String
        var aid: String?
        var amount: String
        var verification: String
        var approvalCode: String?
        var reference: String
    }

    /// Why the payment was declined and what the merchant can offer instead.
    /// The loyalty pass read with the card (Apple VAS).
    struct Loyalty: Encodable {
        var passTypeIdentifier: String
        /// The wallet's status for the pass, e.g. `success`.
        var status: String
        /// What the merchant's server decrypted with the shop's key.
        var memberId: String?
        /// The size of the encrypted pass message the reader returned.
        var cryptogramBytes: Int
    }

    struct Decline: Encodable {
        var reason: String
        var responseCode: String?
        var alternatives: [String]
    }

    var path: Checkout.Path
    var merchant: String
    var merchantId: String
    var deviceId: String
    var testCard: String
    var amount: String
    var currency: String
    var readId: String
    var aid: String?
    var card: String?
    var events: [String]
    var authorization: Authorization
    var pin: PIN?
    /// With `--loyalty`: the pass read in the same tap, as the merchant's server decrypted it.
    var loyalty: Loyalty?
    var receipt: Receipt?
    var decline: Decline?

    init(
        path: Checkout.Path, merchant: String, merchantId: String, deviceId: String, testCard: String,
        read: PaymentCardReadResult, payment: Payment, pin: PIN?, loyalty: Loyalty? = nil, events: [String],
        amount: Amount, date: Date
    ) {
        self.loyalty = loyalty
        self.path = path
        self.merchant = merchant
        self.merchantId = merchantId
        self.deviceId = deviceId
        self.testCard = testCard
        self.amount = amount.formatted
        self.currency = amount.currency.alphabeticCode
        readId = read.id
        aid = read.applicationTypeIdentifier
        card = payment.card.map { "\($0.scheme) \($0.bin)…\($0.last4)" }
        self.events = events
        self.pin = pin
        authorization = Authorization(
            paymentId: payment.id, status: payment.status.rawValue, responseCode: payment.issuer?.responseCode,
            approvalCode: payment.issuer?.approvalCode, arpcReturned: payment.issuer?.authenticationData != nil,
            failureCode: payment.failureCode)
        if payment.status == .succeeded {
            receipt = Receipt(
                merchant: merchant, date: Self.receiptDate(date), card: card ?? "card",
                entryMode: payment.card?.entryMode ?? "contactless", aid: aid,
                amount: amount.formatted,
                verification: pin != nil
                    ? "PIN verified online by the issuer" : Self.verification(CardSummary(read).cardholderVerification),
                approvalCode: payment.issuer?.approvalCode, reference: payment.id)
        } else {
            let code = payment.issuer?.responseCode
            decline = Decline(
                reason: Self.reason(code: code, failure: payment.failureCode), responseCode: code,
                alternatives: Self.alternatives(code: code))
        }
    }

    /// The CVM the card reported, as the receipt says it.
    private static func verification(_ method: CardholderVerificationMethod) -> String {
        switch method {
        case .onlinePIN: "PIN verified online"
        case .signature: "signature"
        case .noCVM: "no cardholder verification needed"
        case .consumerDevice: "verified on the cardholder's phone"
        case .unknown: "none recorded by the card"
        }
    }

    private static func receiptDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    /// The reason a cashier can say out loud.
    private static func reason(code: String?, failure: String?) -> String {
        switch code {
        case "51": "insufficient funds"
        case "54": "the card has expired"
        case "41", "43": "the issuer reports the card lost or stolen"
        case "55": "incorrect PIN"
        case "05", "57": "the issuer did not honour the card"
        case "91": "the issuer could not be reached"
        default: failure ?? "declined by the issuer (\(code ?? "no response code"))"
        }
    }

    /// What the merchant can offer after a decline with this response code.
    private static func alternatives(code: String?) -> [String] {
        switch code {
        case "51":
            [
                "ask for another card", "take a smaller amount on this card",
                "offer another way to pay (cash, Apple Pay)",
            ]
        case "54": ["ask for another card", "offer another way to pay (cash, Apple Pay)"]
        case "41", "43": ["do not tap this card again", "ask for another card"]
        case "55": ["tap again and enter the PIN", "ask for another card"]
        case "91": ["try again in a moment", "offer another way to pay (cash)"]
        default: ["ask for another card", "offer another way to pay (cash, Apple Pay)"]
        }
    }
}
