import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// What the token service reads from a merchant's payment processing certificate to encrypt to it, as Apple's
/// does: the key (which decides EC_v1 or RSA_v1), the key's hash for the header, and the merchant identifier hash
/// (EC_v1's KDF input).
struct MerchantRecipient {
    enum Key {
        case ec(P256.KeyAgreement.PublicKey)
        case rsa(_RSA.Encryption.PublicKey)
    }

    let key: Key
    /// SHA-256 of the certificate's SubjectPublicKeyInfo (DER): the header's `publicKeyHash`.
    let publicKeyHash: [UInt8]
    /// The 32 bytes of the merchant identifier extension (SHA-256 of the merchant identifier).
    let merchantIdentifierHash: [UInt8]

    init(certificate: Certificate) throws {
        guard let hash = MerchantIdentity.merchantIdentifierHash(in: certificate) else {
            throw TokenServiceError(
                code: .merchantCertificateInvalid,
                message: "the certificate has no merchant identifier extension of 32 bytes in hex"
            )
        }
        merchantIdentifierHash = hash
        // Not `subjectPublicKeyInfoBytes`: that is the bare key (the BIT STRING's content), not the whole SPKI.
        var spki = DER.Serializer()
        try spki.serialize(certificate.publicKey)
        publicKeyHash = Array(SHA256.hash(data: spki.serializedBytes))
        if let ec = P256.Signing.PublicKey(certificate.publicKey) {
            key = .ec(try P256.KeyAgreement.PublicKey(rawRepresentation: ec.rawRepresentation))
        } else if let rsa = _RSA.Signing.PublicKey(certificate.publicKey) {
            key = .rsa(try _RSA.Encryption.PublicKey(derRepresentation: rsa.derRepresentation))
        } else {
            throw TokenServiceError(
                code: .merchantCertificateInvalid, message: "the certificate's key is neither P-256 nor RSA"
            )
        }
    }

    /// Whether the certificate was issued for `merchantIdentifier`.
    func isIssued(for merchantIdentifier: String) -> Bool {
        PaymentDataKeyDerivation.merchantIdentifierHash(of: merchantIdentifier) == merchantIdentifierHash
    }
}
