public import Crypto
public import Foundation

/// AES-GCM as Apple Pay uses it for the payment data: a 16-byte all-zero IV (each key encrypts one message) and
/// the 16-byte tag appended to the ciphertext. AES-256 for EC_v1, AES-128 for RSA_v1: the key's size decides.
///
/// A 16-byte IV is not GCM's usual 12 bytes: GCM then derives its counter block J0 with GHASH (SP 800-38D §7.1),
/// which swift-crypto's `AES.GCM` does for any nonce of 12 bytes or more.
public enum PaymentDataCipher {
    /// The IV: 16 zero bytes.
    public static let initializationVector = [UInt8](repeating: 0, count: 16)
    /// The size of the authentication tag appended to the ciphertext.
    public static let tagByteCount = 16

    private static func nonce() throws -> AES.GCM.Nonce {
        try AES.GCM.Nonce(data: initializationVector)
    }

    /// Encrypts `plaintext`, returning ciphertext ‖ tag (the token's `data` before base64).
    public static func seal(_ plaintext: some DataProtocol, using key: SymmetricKey) throws -> [UInt8] {
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce())
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw ApplePayError(code: .decryptionFailed, message: "AES-GCM encryption failed")
        }
    }

    /// Decrypts ciphertext ‖ tag, checking the tag.
    ///
    /// - Throws: ``ApplePayError/Code/decryptionFailed`` when the data is shorter than a tag or does not
    ///   authenticate under `key`.
    public static func open(_ ciphertextAndTag: [UInt8], using key: SymmetricKey) throws -> [UInt8] {
        guard ciphertextAndTag.count >= tagByteCount else {
            throw ApplePayError(code: .decryptionFailed, message: "the encrypted data is shorter than its tag")
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce(), ciphertext: ciphertextAndTag.dropLast(tagByteCount),
                tag: ciphertextAndTag.suffix(tagByteCount))
            return Array(try AES.GCM.open(box, using: key))
        } catch {
            throw ApplePayError(code: .decryptionFailed, message: "the payment data does not authenticate under the key")
        }
    }
}
