import EMV
import Foundation

/// Writes the decrypted payload's JSON as Apple's token service does ("Payment token format reference"): the
/// device account, the amount, and a 3DSecure or EMV `paymentData`, in the wire type the decryptor reads.
enum TokenPayloadEncoder {
    static func payload(account: DeviceAccount, amount: Amount, cryptogram: DeviceCryptogram) -> PaymentPayload {
        let credential =
            switch cryptogram {
            case .threeDSecure(let value, let eci):
                PaymentPayload.Credential(onlinePaymentCryptogram: Data(value).base64EncodedString(), eciIndicator: eci)
            case .emv(let value, let pin):
                PaymentPayload.Credential(
                    emvData: Data(value).base64EncodedString(), encryptedPINData: pin.map { $0.hexString }
                )
            }
        return PaymentPayload(
            applicationPrimaryAccountNumber: account.accountNumber.digits,
            applicationExpirationDate: expirationDate(account.expiry),
            currencyCode: String(format: "%03d", amount.currency.numericCode),
            transactionAmount: amount.minorUnits,
            cardholderName: account.cardholderName,
            deviceManufacturerIdentifier: account.deviceManufacturerIdentifier,
            paymentDataType: cryptogram.payloadKind.rawValue,
            paymentData: credential
        )
    }

    /// YYMMDD with the expiry month's last day, as payloads carry it.
    static func expirationDate(_ expiry: ExpiryDate) -> String {
        let last = expiry.lastDay
        return String(format: "%02d%02d%02d", last.year % 100, last.month, last.day)
    }
}
