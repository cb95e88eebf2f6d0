import ApplePay
import Crypto
import Foundation
import _CryptoExtras

/// The floor of one token's verify + decrypt: its cryptography alone, on inputs prepared from the token.
///
/// - the key: EC_v1 one ECDH of the merchant key with the (parsed) ephemeral key; RSA_v1 one RSA-OAEP-SHA256 unwrap;
/// - the signature: one ECDSA P-256 verification of a signature over as many bytes as the token's signed
///   attributes (the verifier's signature check; the chain's are cached);
/// - the payload: one AES-GCM open of the token's data with its key.
struct TokenCryptography: Sendable {
    private enum KeyStep: @unchecked Sendable {
        case ecdh(P256.KeyAgreement.PrivateKey, P256.KeyAgreement.PublicKey)
        case rsa(_RSA.Encryption.PrivateKey, Data)
    }

    private let keyStep: KeyStep
    private let verifyingKey: P256.Signing.PublicKey
    private let signature: P256.Signing.ECDSASignature
    private let signedBytes: [UInt8]
    private let box: AES.GCM.SealedBox
    private let symmetricKey: SymmetricKey

    /// The signed attributes of Apple's and our signatures (contentType, signingTime, algorithm protection,
    /// messageDigest) are 152 bytes as DER.
    static let signedAttributesByteCount = 152

    init(_ token: BenchmarkToken) throws {
        let header = token.paymentData.header
        guard let data = Data(base64Encoded: token.paymentData.data), data.count > 16 else {
            throw BenchmarkToken.SetupError(description: "the token's data is not base64")
        }
        switch token.merchant.privateKey {
        case .p256(let privateKey):
            guard let ephemeral = header.ephemeralPublicKey.flatMap({ Data(base64Encoded: $0) }) else {
                throw BenchmarkToken.SetupError(description: "no ephemeral key")
            }
            let publicKey = try P256.KeyAgreement.PublicKey(derRepresentation: ephemeral)
            keyStep = .ecdh(privateKey, publicKey)
            symmetricKey = PaymentDataKeyDerivation.symmetricKey(
                sharedSecret: try PaymentDataKeyDerivation.sharedSecret(privateKey: privateKey, publicKey: publicKey),
                merchantIdentifierHash: token.merchant.merchantIdentifierHash
            )
        case .rsa(let privateKey):
            guard let wrapped = header.wrappedKey.flatMap({ Data(base64Encoded: $0) }) else {
                throw BenchmarkToken.SetupError(description: "no wrapped key")
            }
            keyStep = .rsa(privateKey, wrapped)
            symmetricKey = SymmetricKey(data: try privateKey.decrypt(wrapped, padding: .PKCS1_OAEP_SHA256))
        }
        box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 16)), ciphertext: data.dropLast(16),
            tag: data.suffix(16)
        )
        let signingKey = P256.Signing.PrivateKey()
        verifyingKey = signingKey.publicKey
        signedBytes = [UInt8](repeating: 0x31, count: Self.signedAttributesByteCount)
        signature = try signingKey.signature(for: signedBytes)
        _ = try run()
    }

    /// The three operations; throws if any fails, so the benchmark measures the successful path.
    func run() throws -> Data {
        switch keyStep {
        case .ecdh(let privateKey, let publicKey):
            _ = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
        case .rsa(let privateKey, let wrapped):
            _ = try privateKey.decrypt(wrapped, padding: .PKCS1_OAEP_SHA256)
        }
        guard verifyingKey.isValidSignature(signature, for: signedBytes) else {
            throw BenchmarkToken.SetupError(description: "the signature does not verify")
        }
        return try AES.GCM.open(box, using: symmetricKey)
    }
}
