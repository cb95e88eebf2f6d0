import EMV
import Foundation

/// Writes the decrypted payload's JSON as Apple's token service does ("Payment token format reference",
/// payment data keys): the device account, the amount, and a 3DSecure or EMV `paymentData`.
enum TokenPayloadEncoder {
    // INTERIM: the wire types belong to Payload/ (helper ap-verify); this encoder switches to them once they land.
    private struct Wire: Encodable {
        var applicationPrimaryAccountNumber: String
        var applicationExpirationDate: String
        var currencyCode: String
        var transactionAmount: Int
        var cardholderName: String?
        var deviceManufacturerIdentifier: String
        var paymentDataType: String
        var paymentData: Details
    }

    private struct Details: Encodable {
        var onlinePaymentCryptogram: String?
        var eciIndicator: String?
        var emvData: String?
        var encryptedPINData: String?
    }

    static func encode(account: DeviceAccount, amount: Amount, cryptogram: DeviceCryptogram) throws -> Data {
        let details =
            switch cryptogram {
            case .threeDSecure(let value, let eci):
                Details(onlinePaymentCryptogram: Data(value).base64EncodedString(), eciIndicator: eci)
            case .emv(let value, let pin):
                Details(emvData: Data(value).base64EncodedString(), encryptedPINData: pin)
            }
        let wire = Wire(
            applicationPrimaryAccountNumber: account.accountNumber.digits,
            applicationExpirationDate: expirationDate(account.expiry),
            currencyCode: String(format: "%03d", amount.currency.numericCode),
            transactionAmount: amount.minorUnits,
            cardholderName: account.cardholderName,
            deviceManufacturerIdentifier: account.deviceManufacturerIdentifier,
            paymentDataType: cryptogram.payloadKind.rawValue,
            paymentData: details
        )
        return try JSONEncoder().encode(wire)
    }

    /// YYMMDD with the expiry month's last day, as payloads carry it.
    static func expirationDate(_ expiry: ExpiryDate) -> String {
        let last = expiry.lastDay
        return String(format: "%02d%02d%02d", last.year % 100, last.month, last.day)
    }
}
