import Foundation
import GatewayAPI

/// A device's PIN encryption key: AES-128 for ISO 9564-1 format 4 PIN blocks.
struct PINEncryptionKey: Sendable, CustomStringConvertible, CustomReflectable {
    /// `pk_…`.
    var id: String
    /// The 16 key bytes.
    var bytes: [UInt8]

    /// A new random key.
    static func generate() -> PINEncryptionKey {
        var generator = SystemRandomNumberGenerator()
        return PINEncryptionKey(
            id: EntityID.make("pk"), bytes: (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The data the stored ciphertext is bound to, so a key can't be moved to another merchant's or device's row:
    /// the merchant and device ids (a merchant id never holds a NUL), as the payments code binds what it keeps to
    /// its record's id.
    static func authenticatedData(merchantId: String, deviceId: String) -> [UInt8] {
        Array(merchantId.utf8) + [0] + Array(deviceId.utf8)
    }

    /// The wire form for the prepare response.
    var provisioning: ReaderProvisioning.PINEncryptionKey {
        ReaderProvisioning.PINEncryptionKey(keyId: id, key: Data(bytes))
    }

    /// The id only.
    var description: String { "PINEncryptionKey(\(id))" }
    /// The id only.
    var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
