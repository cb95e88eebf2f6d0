import Crypto
import Foundation

/// A PSP private key ready to open sealed card data: swift-crypto's `HPKE.Recipient` in base mode (RFC 9180) for the
/// one ciphersuite readers seal with (``CardDataSealer/ciphersuite``), one message per encapsulated key, behind a
/// type that never prints the key.
package struct CardDataRecipientKey: Sendable, CustomStringConvertible, CustomReflectable {
    let privateKey: P256.KeyAgreement.PrivateKey
    private let info: Data

    package init(_ privateKey: P256.KeyAgreement.PrivateKey, info: [UInt8]) {
        self.privateKey = privateKey
        self.info = Data(info)
    }

    /// The plaintext of `ciphertext` (with its 16-byte tag) sealed to this key under `encapsulatedKey`, with
    /// `authenticatedData`; throws when anything does not open.
    package func open(
        _ ciphertext: Data, encapsulatedKey: Data, authenticating authenticatedData: Data
    ) throws -> Data {
        var recipient = try HPKE.Recipient(
            privateKey: privateKey, ciphersuite: CardDataSealer.ciphersuite, info: info,
            encapsulatedKey: encapsulatedKey)
        return try recipient.open(ciphertext, authenticating: authenticatedData)
    }

    /// Names the type only: keys never go to logs.
    package var description: String { "CardDataRecipientKey(<redacted>)" }

    package var customMirror: Mirror { Mirror(self, children: []) }
}
