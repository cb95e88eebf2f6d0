import Crypto
import Foundation

/// AES-GCM under the gateway's data key for what must be kept encrypted for a while: a reversal message (it holds
/// the PAN), a read's card data while its PIN is awaited. The record's id is the authenticated data, so a
/// ciphertext cannot be moved to another record.
struct AtRestCipher: Sendable {
    let key: SymmetricKey

    func seal(_ plaintext: [UInt8], boundTo id: String) throws -> [UInt8] {
        Array(try AES.GCM.seal(plaintext, using: key, authenticating: Data(id.utf8)).combined ?? Data())
    }

    func open(_ ciphertext: [UInt8], boundTo id: String) throws -> [UInt8] {
        Array(try AES.GCM.open(AES.GCM.SealedBox(combined: ciphertext), using: key, authenticating: Data(id.utf8)))
    }
}
