public import Crypto
public import Foundation

/// EC_v1 key agreement and derivation: the ECDH shared secret at its fixed width, and the NIST SP 800-56A
/// concatenation KDF with Apple's fixed inputs, which turns it into the AES-256-GCM key.
///
/// Both the decryptor and a token service (encrypting to a merchant) use these, so the two cannot disagree.
public enum PaymentDataKeyDerivation {
    /// The KDF's AlgorithmID: a length byte (13) then "id-aes256-GCM".
    static let algorithmID: [UInt8] = [0x0D] + Array("id-aes256-GCM".utf8)
    /// The KDF's PartyUInfo: "Apple".
    static let partyUInfo: [UInt8] = Array("Apple".utf8)
    /// The width of a P-256 shared secret (the x coordinate) in bytes.
    public static let sharedSecretByteCount = 32

    /// The ECDH shared secret Z of `privateKey` and `publicKey` as exactly 32 big-endian bytes, leading zeros kept.
    ///
    /// Some decryptors strip leading zero bytes and then fail on one token in 256; the KDF needs the fixed width.
    public static func sharedSecret(
        privateKey: P256.KeyAgreement.PrivateKey, publicKey: P256.KeyAgreement.PublicKey
    ) throws -> [UInt8] {
        let secret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
        let bytes = secret.withUnsafeBytes { Array($0) }
        guard bytes.count <= sharedSecretByteCount else {
            throw ApplePayError(code: .decryptionFailed, message: "the ECDH shared secret is wider than 32 bytes")
        }
        return [UInt8](repeating: 0, count: sharedSecretByteCount - bytes.count) + bytes
    }

    /// The EC_v1 symmetric key: SHA-256(00000001 ‖ Z ‖ 0x0D ‖ "id-aes256-GCM" ‖ "Apple" ‖ SHA-256(merchant id)).
    ///
    /// - Parameters:
    ///   - sharedSecret: Z, the 32-byte shared secret from ``sharedSecret(privateKey:publicKey:)``.
    ///   - merchantIdentifierHash: SHA-256 of the merchant identifier, as the merchant certificate carries it
    ///     (``MerchantIdentity/merchantIdentifierHash``).
    public static func symmetricKey(
        sharedSecret: some DataProtocol, merchantIdentifierHash: some DataProtocol
    ) -> SymmetricKey {
        var hash = SHA256()
        hash.update(data: [0, 0, 0, 1])
        hash.update(data: sharedSecret)
        hash.update(data: algorithmID)
        hash.update(data: partyUInfo)
        hash.update(data: merchantIdentifierHash)
        return SymmetricKey(data: Array(hash.finalize()))
    }

    /// SHA-256 of a merchant identifier such as "merchant.com.example": the KDF's PartyVInfo.
    public static func merchantIdentifierHash(of merchantIdentifier: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(merchantIdentifier.utf8)))
    }
}
