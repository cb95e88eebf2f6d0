public import Crypto
public import Foundation

/// What `POST /v1/devices/{deviceId}/prepare` provisions a device with: the PSP's card-data key, the reader
/// configuration, the PIN encryption key and a reader session.
///
/// Delivered as the last line of the prepare stream (see ``PrepareProgress``). It holds a key and a bearer
/// credential, so ``description`` names identifiers only.
public struct ReaderProvisioning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The device.
    public var deviceId: String
    /// The merchant the session acts for.
    public var merchantId: String
    /// The merchant's business name, as the PSP knows it (what a payment screen shows when the app sets none).
    public var merchantName: String?
    /// The device's terminal id, ISO 8583 field 41 (8 characters), assigned at its first prepare.
    public var terminalId: String
    /// The PSP's current HPKE public key to seal card data to.
    public var cardDataKey: CardDataKey
    /// The reader configuration.
    public var readerConfiguration: ReaderConfigurationPayload
    /// The key the device enciphers online PINs under.
    public var pinKey: PINEncryptionKey
    /// The reader session: the credential for the payment calls from this device.
    public var session: ReaderSession

    /// Creates provisioning.
    public init(
        deviceId: String, merchantId: String, terminalId: String, cardDataKey: CardDataKey,
        readerConfiguration: ReaderConfigurationPayload, pinKey: PINEncryptionKey, session: ReaderSession,
        merchantName: String? = nil
    ) {
        self.deviceId = deviceId
        self.merchantId = merchantId
        self.merchantName = merchantName
        self.terminalId = terminalId
        self.cardDataKey = cardDataKey
        self.readerConfiguration = readerConfiguration
        self.pinKey = pinKey
        self.session = session
    }

    /// Identifiers only.
    public var description: String {
        "ReaderProvisioning(device \(deviceId), merchant \(merchantId), terminal \(terminalId), "
            + "card data key \(cardDataKey.keyId), PIN key \(pinKey.keyId), session until \(session.expiresAt))"
    }

    /// The PSP's HPKE public key (P-256) with its key id.
    public struct CardDataKey: Sendable, Hashable, Codable {
        /// The key id sealed data names.
        public var keyId: String
        /// The public key, X9.63 uncompressed (65 bytes), base64 in JSON.
        public var publicKey: Data

        /// Creates the key description.
        public init(keyId: String, publicKey: P256.KeyAgreement.PublicKey) {
            self.keyId = keyId
            self.publicKey = publicKey.x963Representation
        }

        /// A sealer to this key.
        /// - Throws: ``GatewayAPIError/Code/invalidRequest`` when the bytes are not a P-256 point.
        public func sealer() throws(GatewayAPIError) -> CardDataSealer {
            guard let key = try? P256.KeyAgreement.PublicKey(x963Representation: publicKey) else {
                throw GatewayAPIError(code: .invalidRequest, message: "the card data key is not a P-256 public key")
            }
            return CardDataSealer(publicKey: key, keyId: keyId)
        }
    }

    /// The AES-128 key the device enciphers PIN blocks with (ISO 9564-1 format 4), generated for the device at its
    /// first prepare and kept by the gateway encrypted under its data key.
    ///
    /// Here it travels inside the TLS-protected prepare response; a production deployment would wrap it under a key
    /// of the device's secure element (or derive it by DUKPT) so it never exists in the clear outside the two ends.
    public struct PINEncryptionKey: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
        /// The key's id, quoted with each PIN block.
        public var keyId: String
        /// The 16 key bytes, base64 in JSON.
        public var key: Data
        /// The PIN block format: always `ISO9564-4`.
        public var format: String

        /// Creates the key.
        public init(keyId: String, key: Data, format: String = "ISO9564-4") {
            self.keyId = keyId
            self.key = key
            self.format = format
        }

        /// The id only.
        public var description: String { "PINEncryptionKey(\(keyId))" }
        /// The id only, so `dump` shows no key bytes.
        public var customMirror: Mirror { Mirror(self, children: ["keyId": keyId]) }
    }

    /// A reader session: an ES256 JWT bound to the device and merchant.
    public struct ReaderSession: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
        /// The JWT, sent as `Authorization: Bearer …` with the device's payment calls.
        public var token: String
        /// When it stops being accepted (`tokenExpired`): prepare again.
        public var expiresAt: Date

        /// Creates a session.
        public init(token: String, expiresAt: Date) {
            self.token = token
            self.expiresAt = expiresAt
        }

        /// The expiry only.
        public var description: String { "ReaderSession(until \(expiresAt))" }
        /// The expiry only.
        public var customMirror: Mirror { Mirror(self, children: ["expiresAt": expiresAt]) }
    }
}
