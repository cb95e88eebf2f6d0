public import Crypto
public import _CryptoExtras
import Foundation
import EMV
import SwiftASN1
public import X509

/// A merchant's Apple Pay payment processing certificate with its private key: what decrypts the tokens
/// encrypted to it.
///
/// Tokens name the key they were encrypted to by ``publicKeyHash``; a decryptor holds several identities while a
/// merchant rotates its certificate. EC_v1 also needs ``merchantIdentifierHash``, which Apple puts in the
/// certificate's extension 1.2.840.113635.100.6.32.
public struct MerchantIdentity: Sendable {
    /// The private key of a payment processing certificate.
    // Unchecked: swift-crypto does not mark its RSA keys Sendable, but they are immutable BoringSSL keys, safe to
    // use from any thread.
    public enum PrivateKey: @unchecked Sendable {
        /// P-256, for EC_v1 tokens.
        case p256(P256.KeyAgreement.PrivateKey)
        /// RSA, for RSA_v1 tokens (the key unwraps with OAEP-SHA256).
        case rsa(_RSA.Encryption.PrivateKey)
    }

    /// The OID of the extension that carries the merchant identifier's SHA-256 (hex text).
    public static let merchantIdentifierExtensionOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 32]

    /// The payment processing certificate.
    public let certificate: Certificate
    /// Its private key.
    public let privateKey: PrivateKey
    /// SHA-256 of the merchant identifier (32 bytes): the KDF's PartyVInfo.
    public let merchantIdentifierHash: [UInt8]
    /// Base64 SHA-256 of the certificate's SubjectPublicKeyInfo (DER): matched against a token's
    /// `header.publicKeyHash`.
    public let publicKeyHash: String

    /// An identity from a certificate and its private key.
    ///
    /// - Parameters:
    ///   - merchantIdentifier: the merchant identifier ("merchant.com.example"), needed only when the certificate
    ///     lacks Apple's merchant identifier extension (self-made test certificates).
    /// - Throws: ``ApplePayError/Code/merchantIdentityInvalid`` when the key does not match the certificate, or
    ///   neither the certificate nor `merchantIdentifier` gives the merchant identifier.
    public init(certificate: Certificate, privateKey: PrivateKey, merchantIdentifier: String? = nil) throws {
        let spki: [UInt8]
        do {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate.publicKey)
            spki = serializer.serializedBytes
        } catch {
            throw ApplePayError(code: .merchantIdentityInvalid, message: "the certificate's public key cannot be encoded")
        }
        guard Self.publicKeyMatches(privateKey, spki: spki) else {
            throw ApplePayError(
                code: .merchantIdentityInvalid, message: "the private key does not belong to the certificate")
        }
        if let merchantIdentifier {
            merchantIdentifierHash = PaymentDataKeyDerivation.merchantIdentifierHash(of: merchantIdentifier)
        } else if let hash = Self.merchantIdentifierHash(in: certificate) {
            merchantIdentifierHash = hash
        } else {
            throw ApplePayError(
                code: .merchantIdentityInvalid,
                message: "the certificate has no merchant identifier extension (1.2.840.113635.100.6.32)")
        }
        self.certificate = certificate
        self.privateKey = privateKey
        self.publicKeyHash = Data(SHA256.hash(data: spki)).base64EncodedString()
    }

    /// An identity from PEM text: the certificate, and the key as PKCS #8, SEC 1 ("EC PRIVATE KEY") or PKCS #1
    /// ("RSA PRIVATE KEY"). Text around the PEM blocks (such as OpenSSL's "Bag Attributes") is ignored.
    public init(certificatePEM: String, privateKeyPEM: String, merchantIdentifier: String? = nil) throws {
        let certificate: Certificate
        do {
            certificate = try Certificate(pemEncoded: Self.pemBlock(in: certificatePEM))
        } catch {
            throw ApplePayError(code: .merchantIdentityInvalid, message: "the certificate PEM cannot be read")
        }
        let keyPEM = Self.pemBlock(in: privateKeyPEM)
        let key: PrivateKey
        if let ec = try? P256.KeyAgreement.PrivateKey(pemRepresentation: keyPEM) {
            key = .p256(ec)
        } else if let rsa = try? _RSA.Encryption.PrivateKey(pemRepresentation: keyPEM) {
            key = .rsa(rsa)
        } else {
            throw ApplePayError(
                code: .merchantIdentityInvalid, message: "the private key PEM is neither a P-256 nor an RSA key")
        }
        try self.init(certificate: certificate, privateKey: key, merchantIdentifier: merchantIdentifier)
    }

    /// The merchant identifier hash in Apple's extension: a UTF8String of 64 hex digits.
    static func merchantIdentifierHash(in certificate: Certificate) -> [UInt8]? {
        guard let ext = certificate.extensions[oid: merchantIdentifierExtensionOID] else { return nil }
        var text = String(decoding: ext.value, as: UTF8.self)
        if let node = try? DER.parse(ext.value), case .primitive(let content) = node.content {
            text = String(decoding: content, as: UTF8.self)
        }
        guard let hash = [UInt8](hex: text), hash.count == 32 else { return nil }
        return hash
    }

    private static func publicKeyMatches(_ key: PrivateKey, spki: [UInt8]) -> Bool {
        switch key {
        case .p256(let ec):
            return (try? P256.KeyAgreement.PublicKey(derRepresentation: spki))?.rawRepresentation
                == ec.publicKey.rawRepresentation
        case .rsa(let rsa):
            return (try? _RSA.Encryption.PublicKey(derRepresentation: spki))?.derRepresentation
                == rsa.publicKey.derRepresentation
        }
    }

    /// The first "-----BEGIN …-----" to "-----END …-----" block of `text`, or `text` when it has none.
    private static func pemBlock(in text: String) -> String {
        guard let begin = text.range(of: "-----BEGIN "),
            let endMarker = text.range(of: "-----END ", range: begin.upperBound..<text.endIndex),
            let close = text.range(of: "-----", range: endMarker.upperBound..<text.endIndex)
        else { return text }
        return String(text[begin.lowerBound..<close.upperBound])
    }
}
