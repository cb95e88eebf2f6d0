public import EMV
import Foundation

/// The decrypted payment data of a token, checked and typed: the account number as a ``EMV/PAN``, the expiry as a
/// date, the amount in minor units of an ``EMV/Currency``, and the cryptogram or EMV data as bytes.
///
/// Its description and reflection show the masked account number only: no cryptogram, EMV data or name.
public struct DecryptedPayment: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// What authenticates the payment.
    public enum Credential: Hashable, Sendable {
        /// The online payment cryptogram and, for networks that use one, the ECI.
        case threeDSecure(onlinePaymentCryptogram: [UInt8], eciIndicator: String?)
        /// The EMV data and, when a PIN was entered, the encrypted PIN data.
        case emv(emvData: [UInt8], encryptedPINData: [UInt8]?)
    }

    /// The cryptogram of one further merchant of a multi-merchant payment.
    public struct AuthenticationResponse: Hashable, Sendable {
        /// The merchant it is for.
        public let merchantIdentifier: String?
        /// The cryptogram.
        public let authenticationData: [UInt8]
        /// The merchant's amount in minor units of the payment's currency.
        public let transactionAmount: Int?
    }

    /// The device (or merchant token) account number.
    public let accountNumber: PAN
    /// The account number's expiry date (Apple gives a day, usually the month's last).
    public let expirationDate: EMVDate
    /// The amount and currency the user authorized.
    public let amount: Amount
    /// The cardholder's name, when shared.
    public let cardholderName: String?
    /// Hex identifier of the Secure Element's maker.
    public let deviceManufacturerIdentifier: String
    /// The cryptogram or EMV data.
    public let credential: Credential
    /// Cryptograms for other merchants of a multi-merchant payment; empty otherwise.
    public let authenticationResponses: [AuthenticationResponse]
    /// The merchant token's identifier, when the account number is a merchant token.
    public let merchantTokenIdentifier: String?
    /// Merchant token metadata as Apple sent it.
    public let merchantTokenMetadata: JSONValue?

    /// The expiry month of the account number.
    public let expiry: ExpiryDate

    /// The payment data type, as the wire names it.
    public var dataType: PaymentPayload.DataType {
        switch credential {
        case .threeDSecure: .threeDSecure
        case .emv: .emv
        }
    }

    /// Checks and types a wire payload.
    ///
    /// - Throws: ``ApplePayError/Code/payloadMalformed`` naming the field that is invalid (never its value).
    public init(payload: PaymentPayload) throws {
        func malformed(_ what: String) -> ApplePayError {
            ApplePayError(code: .payloadMalformed, message: what)
        }
        do {
            accountNumber = try PAN(payload.applicationPrimaryAccountNumber, requireLuhn: false)
        } catch {
            throw malformed("applicationPrimaryAccountNumber is not 12 to 19 decimal digits")
        }
        let expiryText = payload.applicationExpirationDate
        guard expiryText.utf8.count == 6, expiryText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let bcd = [UInt8](hex: expiryText), let date = try? EMVDate(n6: bcd),
            let month = try? ExpiryDate(year: date.year, month: date.month)
        else { throw malformed("applicationExpirationDate is not a YYMMDD date") }
        expirationDate = date
        expiry = month
        guard payload.currencyCode.utf8.count == 3, let numeric = Int(payload.currencyCode),
            let currency = Currency(numericCode: numeric)
        else { throw malformed("currencyCode is not a known ISO 4217 numeric code") }
        guard payload.transactionAmount >= 0 else { throw malformed("transactionAmount is negative") }
        amount = Amount(minorUnits: payload.transactionAmount, currency: currency)
        cardholderName = payload.cardholderName
        guard !payload.deviceManufacturerIdentifier.isEmpty,
            [UInt8](hex: payload.deviceManufacturerIdentifier) != nil
        else { throw malformed("deviceManufacturerIdentifier is not hex") }
        deviceManufacturerIdentifier = payload.deviceManufacturerIdentifier
        switch PaymentPayload.DataType(rawValue: payload.paymentDataType) {
        case .threeDSecure:
            guard let text = payload.paymentData.onlinePaymentCryptogram,
                let cryptogram = Data(base64Encoded: text), !cryptogram.isEmpty
            else { throw malformed("paymentData.onlinePaymentCryptogram is missing or not base64") }
            credential = .threeDSecure(
                onlinePaymentCryptogram: Array(cryptogram), eciIndicator: payload.paymentData.eciIndicator)
        case .emv:
            guard let text = payload.paymentData.emvData, let emvData = Data(base64Encoded: text), !emvData.isEmpty
            else { throw malformed("paymentData.emvData is missing or not base64") }
            var pinData: [UInt8]?
            if let pinText = payload.paymentData.encryptedPINData {
                guard let bytes = [UInt8](hex: pinText) else {
                    throw malformed("paymentData.encryptedPINData is not hex")
                }
                pinData = bytes
            }
            credential = .emv(emvData: Array(emvData), encryptedPINData: pinData)
        case nil:
            throw malformed("paymentDataType is neither 3DSecure nor EMV")
        }
        authenticationResponses = try (payload.authenticationResponses ?? []).map { response in
            guard let data = Data(base64Encoded: response.authenticationData), !data.isEmpty else {
                throw malformed("authenticationResponses[].authenticationData is not base64")
            }
            return AuthenticationResponse(
                merchantIdentifier: response.merchantIdentifier, authenticationData: Array(data),
                transactionAmount: response.transactionAmount)
        }
        merchantTokenIdentifier = payload.merchantTokenIdentifier
        merchantTokenMetadata = payload.merchantTokenMetadata
    }

    /// Masked account number, expiry, amount and type: `DecryptedPayment(535375******1169, 2024-09, USD 1.00,
    /// 3DSecure)`.
    public var description: String {
        "DecryptedPayment(\(accountNumber.masked), \(expiry), \(amount), \(dataType.rawValue))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Reflection shows the description only, so `dump` cannot leak the cryptogram.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": description], displayStyle: .struct) }
}
