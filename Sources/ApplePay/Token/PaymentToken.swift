/// A payment token as PassKit's `PKPaymentToken` hands it to an app, in the JSON an app posts to its server:
/// the encrypted, Apple-signed ``PaymentData`` plus what the sheet showed about the card.
///
/// Servers often receive only the `paymentData` object; ``PaymentData`` decodes that alone.
public struct PaymentToken: Codable, Hashable, Sendable {
    /// The encrypted payment data, signed by Apple.
    public var paymentData: PaymentData
    /// The card the user chose, as the sheet described it (never the card number).
    public var paymentMethod: PaymentMethodDescription?
    /// Apple's identifier of this transaction (hex), the same as the header's `transactionId`.
    public var transactionIdentifier: String?

    /// A token from its parts.
    public init(
        paymentData: PaymentData, paymentMethod: PaymentMethodDescription? = nil, transactionIdentifier: String? = nil
    ) {
        self.paymentData = paymentData
        self.paymentMethod = paymentMethod
        self.transactionIdentifier = transactionIdentifier
    }
}

/// The `paymentMethod` object of a token: display name, network and card type.
public struct PaymentMethodDescription: Codable, Hashable, Sendable {
    /// What the sheet showed, such as "Visa 1234".
    public var displayName: String?
    /// The payment network, such as "Visa" or "MasterCard".
    public var network: String?
    /// "debit", "credit", "prepaid", "store", "eMoney" or "unknown".
    public var type: String?

    /// A description from its parts.
    public init(displayName: String? = nil, network: String? = nil, type: String? = nil) {
        self.displayName = displayName
        self.network = network
        self.type = type
    }
}

/// The `paymentData` object of a token, field for field as Apple documents it ("Payment token format reference").
public struct PaymentData: Codable, Hashable, Sendable {
    /// The encryption scheme: "EC_v1" or "RSA_v1" (see ``Version``).
    public var version: String
    /// The encrypted payment payload, base64.
    public var data: String
    /// The detached CMS (PKCS #7) signature over the header fields and `data`, base64 of BER.
    public var signature: String
    /// The values the signature covers besides `data`, and the key material needed to decrypt.
    public var header: Header

    /// Payment data from its parts.
    public init(version: String, data: String, signature: String, header: Header) {
        self.version = version
        self.data = data
        self.signature = signature
        self.header = header
    }

    /// The `header` object of ``PaymentData``.
    public struct Header: Codable, Hashable, Sendable {
        /// EC_v1: the sender's ephemeral P-256 public key, base64 of its X.509 SubjectPublicKeyInfo (DER).
        public var ephemeralPublicKey: String?
        /// RSA_v1: the symmetric key wrapped with RSA-OAEP-SHA256 to the merchant's key, base64.
        public var wrappedKey: String?
        /// Base64 SHA-256 of the merchant certificate's public key (SubjectPublicKeyInfo, DER): which key to use.
        public var publicKeyHash: String
        /// The transaction's identifier, hex.
        public var transactionId: String
        /// SHA-256 of the request's `applicationData`, hex; absent when the request had none.
        public var applicationData: String?

        /// A header from its parts.
        public init(
            ephemeralPublicKey: String? = nil, wrappedKey: String? = nil, publicKeyHash: String,
            transactionId: String, applicationData: String? = nil
        ) {
            self.ephemeralPublicKey = ephemeralPublicKey
            self.wrappedKey = wrappedKey
            self.publicKeyHash = publicKeyHash
            self.transactionId = transactionId
            self.applicationData = applicationData
        }
    }

    /// The encryption schemes Apple Pay uses.
    public enum Version: String, Codable, Hashable, Sendable, CaseIterable {
        /// ECDH on P-256 with the header's ephemeral key, concatenation KDF, AES-256-GCM.
        case ecV1 = "EC_v1"
        /// AES-128-GCM with a key wrapped by RSA-OAEP-SHA256 (China mainland merchants).
        case rsaV1 = "RSA_v1"
    }
}
