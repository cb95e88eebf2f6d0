public import Foundation

/// Card data sealed by a reader to the PSP: what travels in the JSON of an API request.
///
/// HPKE (RFC 9180) base mode, ciphersuite P-256 / HKDF-SHA256 / AES-256-GCM, `info` ``protocolInfo``. The read id,
/// device id and merchant id travel in clear so the gateway can refuse someone else's data (`forbidden`) and
/// recognise a replay without decrypting; they are also the ciphertext's authenticated data (see
/// ``authenticatedData``), so changing any of them makes the data unopenable (`cardDataInvalid`). The payload inside
/// repeats them and the opener checks they agree.
public struct SealedCardData: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The HPKE `info` naming this envelope's protocol and version; a new version changes it, so data sealed for one
    /// cannot be opened as another.
    public static let protocolInfo = "contactless.sealed-card-data.v1"

    /// The PSP key the data was sealed to; the opener picks its private key by this id.
    public let keyId: String
    /// The read's unique id (authenticated).
    public let readId: UUID
    /// The reader device (authenticated).
    public let deviceId: String
    /// The merchant (authenticated).
    public let merchantId: String
    /// The HPKE encapsulated key (the sender's ephemeral P-256 public key, X9.63 uncompressed, 65 bytes).
    public let encapsulatedKey: Data
    /// The AES-GCM ciphertext of the JSON payload, tag appended.
    public let ciphertext: Data

    /// Creates sealed data from its parts (as decoded, or for tests).
    public init(
        keyId: String, readId: UUID, deviceId: String, merchantId: String, encapsulatedKey: Data, ciphertext: Data
    ) {
        self.keyId = keyId
        self.readId = readId
        self.deviceId = deviceId
        self.merchantId = merchantId
        self.encapsulatedKey = encapsulatedKey
        self.ciphertext = ciphertext
    }

    /// The bytes the ciphertext authenticates: the key id and the three identifiers, each length-prefixed so no
    /// two different tuples give the same bytes.
    public var authenticatedData: Data {
        Self.authenticatedData(keyId: keyId, readId: readId, deviceId: deviceId, merchantId: merchantId)
    }

    static func authenticatedData(keyId: String, readId: UUID, deviceId: String, merchantId: String) -> Data {
        var data = Data()
        for field in [keyId, readId.lowercaseText, deviceId, merchantId] {
            let bytes = Data(field.utf8)
            var length = UInt32(truncatingIfNeeded: bytes.count).bigEndian
            withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
            data.append(bytes)
        }
        return data
    }

    /// Identifiers and sizes only.
    public var description: String {
        "SealedCardData(key \(keyId), read \(readId.uuidString), merchant \(merchantId), device \(deviceId), "
            + "\(ciphertext.count) bytes sealed)"
    }
}
