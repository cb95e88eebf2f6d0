import EMV
import Foundation
import GatewayAPI
import ISO8583
import _SQLStorage

extension PaymentService {
    /// Resubmits a payment awaiting the cardholder's PIN with the PIN block the reader sent — inside the PIN
    /// capture's sealed card data (the same read, sealed again with the block), or bare: the block (ISO 9564 format 4
    /// under the device's PIN key) is translated to the issuer's PIN key and sent in field 52 with the same card
    /// data (single tap and PIN). The block is never stored or logged.
    ///
    /// - Throws: ``GatewayAPIError/Code/invalidRequest`` (neither or both forms, a malformed block),
    ///   ``GatewayAPIError/Code/pinNotAllowed`` (no PIN asked, wrong token, another read's card data, or later than
    ///   55 s after the read), the card data's own errors (``GatewayAPIError/Code/forbidden``, `cardDataInvalid`,
    ///   `cardDataExpired`), ``GatewayAPIError/Code/incorrectPIN`` (tries remain),
    ///   ``GatewayAPIError/Code/pinTryExceeded`` (the payment is declined), ``GatewayAPIError/Code/issuerUnavailable``.
    func submitPIN(_ submission: PINSubmission, paymentId: String, caller: Caller) async throws -> Payment {
        let bareBlock: [UInt8]?
        switch (submission.cardData, submission.pinBlock) {
        case (nil, let hex?):
            guard let block = [UInt8](hex: hex), block.count == 16 else {
                throw GatewayAPIError(
                    code: .invalidRequest, message: "pinBlock must be 16 bytes of hex (ISO 9564 format 4)")
            }
            bareBlock = block
        case (.some, nil):
            bareBlock = nil
        default:
            throw GatewayAPIError(code: .invalidRequest, message: "give either cardData or pinBlock")
        }
        let now = clock()
        guard var record = try await repository.payment(paymentId, merchantId: caller.merchantId, on: database),
            caller.sees(record)
        else { throw GatewayAPIError(code: .notFound, message: "no such payment") }
        guard record.payment.status == .requiresPIN, let tokenHash = record.pinTokenHash,
            tokenHash == Self.hash(submission.pinToken), let pending = record.pendingCardData
        else {
            throw GatewayAPIError(code: .pinNotAllowed, message: "this payment does not await a PIN for that token")
        }
        guard let deadline = record.pinDeadline, now <= deadline else {
            throw GatewayAPIError(code: .pinNotAllowed, message: "the PIN window (55 s after the read) has passed")
        }
        let pinBlock = try bareBlock ?? captured(submission.cardData, of: record.payment, caller: caller)
        let card = try JSONDecoder().decode(
            CardAuthorizationData.self,
            from: Data(try keys.open(pending, authenticating: Array(record.payment.id.utf8))))
        let translated = try await translate(
            pinBlock, pan: card.pan, merchantId: record.payment.merchantId, deviceId: record.payment.deviceId ?? "")
        let currency = try Self.currency(record.payment.currency)
        let message = try await prepareSend(&record, card: card, currency: currency, pinBlock: translated, opening: nil)
        let payment = try await exchange(message, record: record, card: card)
        switch payment.failureCode {
        case "incorrectPIN" where payment.status == .declined:
            // Tries remain: the payment waits for the PIN again, with the same token and window.
            try await awaitPINAgain(payment.id, merchantId: caller.merchantId, card: card, tokenHash: tokenHash)
            throw GatewayAPIError(code: .incorrectPIN, message: "the issuer refused the PIN")
        case "pinTryExceeded":
            throw GatewayAPIError(code: .pinTryExceeded, message: "the issuer refused the PIN for the last time")
        default:
            return payment
        }
    }

    /// The PIN block of a PIN capture's sealed card data: the caller's, fresh, and the same read as `payment`'s (its
    /// read id was recorded as opened with the payment, so this data can never start another payment).
    private func captured(_ sealed: SealedCardData?, of payment: Payment, caller: Caller) throws -> [UInt8] {
        guard let sealed else {
            throw GatewayAPIError(code: .invalidRequest, message: "give either cardData or pinBlock")
        }
        let payload = try check(sealed, caller: caller)
        guard payload.readId == payment.readId else {
            throw GatewayAPIError(code: .pinNotAllowed, message: "the card data is not the read of this payment")
        }
        guard let pinBlock = payload.pinBlock, pinBlock.count == 16 else {
            throw GatewayAPIError(code: .invalidRequest, message: "the card data carries no PIN block")
        }
        return pinBlock
    }

    /// The format 4 block under the device's PIN key, re-enciphered under the issuer's PIN key.
    func translate(_ pinBlock: [UInt8], pan: PAN, merchantId: String, deviceId: String) async throws -> [UInt8] {
        guard
            let deviceKey = try await DeviceRepository(database: database).pinKeyBytes(
                merchantId: merchantId, deviceId: deviceId, keys: keys)
        else { throw GatewayAPIError(code: .pinNotAllowed, message: "the device has no PIN key; prepare it again") }
        guard let pin = try? PINBlock.decipherISO4(pinBlock, pan: pan.digits, key: deviceKey.key) else {
            // Not a block under this device's key: passed on as random bytes the issuer cannot decipher, which it
            // counts as a wrong PIN (the try counter is the issuer's).
            var generator = SystemRandomNumberGenerator()
            return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        return try PINBlock.encipherISO4(pin: pin, pan: pan.digits, key: issuerPINKey)
    }

    /// Puts a payment whose PIN the issuer refused back to ``PaymentStatus/requiresPIN``.
    private func awaitPINAgain(
        _ id: String, merchantId: String, card: CardAuthorizationData, tokenHash: [UInt8]
    ) async throws {
        let now = clock()
        let sealed = keys.seal(Array(try JSONEncoder().encode(card)), authenticating: Array(id.utf8))
        try await database.transaction { executor in
            guard var record = try await repository.payment(id, merchantId: merchantId, locking: true, on: executor)
            else { return }
            record.payment.status = .requiresPIN
            record.payment.failureCode = nil
            record.pendingCardData = sealed
            record.pinTokenHash = tokenHash
            record.wrongPINCount += 1
            record.payment.updatedAt = now
            try await repository.update(record, on: executor)
        }
    }
}
