import EMV
import Foundation
import GatewayAPI

/// A payment as stored: the API's ``Payment`` plus what only the gateway sees — the ISO 8583 reference, the
/// encrypted reversal message and, while a PIN is awaited, the encrypted card data and the PIN token's hash.
struct PaymentRecord: Sendable {
    var payment: Payment
    /// Field 11, 37 and 41 of the last 0100 sent.
    var stan: String?
    var rrn: String?
    var terminalID: String?
    /// The 0400 that reverses the authorisation, encrypted under the data key (it holds the PAN); kept while a
    /// reversal may be needed: in flight, pending retry, or authorised and not yet captured (a void).
    var reversalMessage: [UInt8]?
    var reversalAttempts: Int = 0
    var nextReversalAt: Date?
    /// The read's card data, encrypted, only while ``PaymentStatus/requiresPIN`` (wiped when it ends).
    var pendingCardData: [UInt8]?
    var pinTokenHash: [UInt8]?
    var pinDeadline: Date?
    var wrongPINCount: Int = 0
}

extension PaymentRecord {
    /// A new payment, `processing` until the issuer answers: nothing captured or refunded, no issuer answer yet.
    init(
        newPaymentOf merchantId: String, deviceId: String, readId: UUID?, kind: PaymentKind,
        captureMethod: CaptureMethod, amount: Int, currency: Currency, card: PaymentCard, at now: Date
    ) {
        self.init(
            payment: Payment(
                id: EntityID.make("pay"), merchantId: merchantId, deviceId: deviceId, readId: readId, kind: kind,
                status: .processing, captureMethod: captureMethod, amount: amount, currency: currency.alphabeticCode,
                capturedAmount: 0, refundedAmount: 0, card: card, issuer: nil, failureCode: nil, pinRequest: nil,
                createdAt: now, updatedAt: now))
    }

    /// Drops the read's card data and the PIN token: the wait for a PIN is over (decided, failed or voided).
    mutating func forgetCardData() {
        pendingCardData = nil
        pinTokenHash = nil
    }
}

extension Caller {
    /// Whether this caller may see and act on `record`: the merchant's server sees all its payments, a reader session
    /// only its own device's.
    func sees(_ record: PaymentRecord) -> Bool {
        deviceId == nil || deviceId == record.payment.deviceId
    }
}
