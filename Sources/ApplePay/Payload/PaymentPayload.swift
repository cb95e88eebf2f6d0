public import EMV

/// The decrypted payment data of a token in its wire JSON, key for key as Apple's "Payment token format
/// reference" lists them: what a decryptor reads and a token service writes.
///
/// Values stay as the wire has them (text, base64, hex); ``DecryptedPayment`` is the checked, typed form. The
/// description and reflection of this type show no account number or cryptogram.
public struct PaymentPayload: Codable, Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The device (or merchant) account number, decimal digits.
    public var applicationPrimaryAccountNumber: String
    /// The account number's expiry, `YYMMDD`.
    public var applicationExpirationDate: String
    /// ISO 4217 numeric currency code, such as "840".
    public var currencyCode: String
    /// The amount in the currency's minor units.
    public var transactionAmount: Int
    /// The cardholder's name, when the card shares it.
    public var cardholderName: String?
    /// Hex identifier of the device's Secure Element maker.
    public var deviceManufacturerIdentifier: String
    /// Which kind of ``paymentData`` follows: "3DSecure" or "EMV" (see ``DataType``).
    public var paymentDataType: String
    /// The cryptogram (3DSecure) or EMV data of the payment.
    public var paymentData: Credential
    /// Cryptograms for the other merchants of a multi-merchant payment.
    public var authenticationResponses: [AuthenticationResponse]?
    /// The merchant token's identifier, when the account number is a merchant token (recurring, deferred,
    /// automatic reload payments).
    public var merchantTokenIdentifier: String?
    /// Metadata about the merchant token (card art, refresh profiles), kept as Apple sent it.
    public var merchantTokenMetadata: JSONValue?

    /// A payload from its parts.
    public init(
        applicationPrimaryAccountNumber: String, applicationExpirationDate: String, currencyCode: String,
        transactionAmount: Int, cardholderName: String? = nil, deviceManufacturerIdentifier: String,
        paymentDataType: String, paymentData: Credential, authenticationResponses: [AuthenticationResponse]? = nil,
        merchantTokenIdentifier: String? = nil, merchantTokenMetadata: JSONValue? = nil
    ) {
        self.applicationPrimaryAccountNumber = applicationPrimaryAccountNumber
        self.applicationExpirationDate = applicationExpirationDate
        self.currencyCode = currencyCode
        self.transactionAmount = transactionAmount
        self.cardholderName = cardholderName
        self.deviceManufacturerIdentifier = deviceManufacturerIdentifier
        self.paymentDataType = paymentDataType
        self.paymentData = paymentData
        self.authenticationResponses = authenticationResponses
        self.merchantTokenIdentifier = merchantTokenIdentifier
        self.merchantTokenMetadata = merchantTokenMetadata
    }

    /// The values of `paymentDataType`.
    public enum DataType: String, Codable, Hashable, Sendable, CaseIterable {
        /// An online payment cryptogram (and ECI) for card-not-present authorization.
        case threeDSecure = "3DSecure"
        /// EMV data (China mainland networks).
        case emv = "EMV"
    }

    /// The `paymentData` object: 3DSecure keys or EMV keys.
    public struct Credential: Codable, Hashable, Sendable {
        /// 3DSecure: the online payment cryptogram, base64.
        public var onlinePaymentCryptogram: String?
        /// 3DSecure: the electronic commerce indicator, when the network uses one.
        public var eciIndicator: String?
        /// EMV: the EMV payment structure, base64.
        public var emvData: String?
        /// EMV: the encrypted PIN data, hex.
        public var encryptedPINData: String?

        /// 3DSecure data.
        public init(onlinePaymentCryptogram: String, eciIndicator: String? = nil) {
            self.onlinePaymentCryptogram = onlinePaymentCryptogram
            self.eciIndicator = eciIndicator
        }

        /// EMV data.
        public init(emvData: String, encryptedPINData: String? = nil) {
            self.emvData = emvData
            self.encryptedPINData = encryptedPINData
        }
    }

    /// One entry of `authenticationResponses`.
    public struct AuthenticationResponse: Codable, Hashable, Sendable {
        /// The merchant this cryptogram is for.
        public var merchantIdentifier: String?
        /// The cryptogram, base64.
        public var authenticationData: String
        /// The amount for this merchant in minor units.
        public var transactionAmount: Int?

        /// A response from its parts.
        public init(merchantIdentifier: String? = nil, authenticationData: String, transactionAmount: Int? = nil) {
            self.merchantIdentifier = merchantIdentifier
            self.authenticationData = authenticationData
            self.transactionAmount = transactionAmount
        }
    }

    /// The type, amount and currency only: no account number, cryptogram or name.
    public var description: String {
        "PaymentPayload(\(paymentDataType), \(transactionAmount) minor units of \(currencyCode))"
    }

    /// Reflection shows the description only, so `dump` cannot leak the account number.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": description], displayStyle: .struct) }
}
