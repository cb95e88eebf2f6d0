public import Crypto
import _CryptoExtras
public import Foundation
import SwiftASN1
public import X509

/// A private stand-in for Apple's Apple Pay PKI: a root, an intermediate and a token-signing leaf shaped like
/// Apple Root CA - G3, Apple Application Integration CA - G3 and ecc-smp-broker-sign (ECDSA P-256, the same
/// extensions and marker OIDs), plus a merchant CA that issues payment processing certificates.
///
/// A verifier trusts it by configuring ``root`` as its root; nothing here chains to Apple's real root.
public struct TestPaymentPKI: Sendable {
    /// The self-signed root ("Test Apple Root CA - G3").
    public let root: Certificate
    /// The intermediate that issues ``leaf`` ("Test Apple Application Integration CA - G3").
    public let intermediate: Certificate
    /// The certificate whose key signs tokens ("Test ecc-smp-broker-sign").
    public let leaf: Certificate
    /// The key of ``leaf``.
    public let leafKey: P256.Signing.PrivateKey
    /// The CA that issues merchants' payment processing certificates ("Test Worldwide Developer Relations CA").
    public let merchantCA: Certificate
    private let merchantCAKey: P256.Signing.PrivateKey
    /// When the CAs are valid, and the merchant certificates ``makeMerchantIdentity(merchantIdentifier:key:)``
    /// issues.
    public let validity: DateInterval

    /// Which of Apple's marker extensions the certificates carry; tests of a verifier leave one out.
    public struct Markers: OptionSet, Hashable, Sendable {
        /// The bits of the set.
        public let rawValue: Int
        /// A set from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// 1.2.840.113635.100.6.29 on the leaf.
        public static let leaf = Markers(rawValue: 1)
        /// 1.2.840.113635.100.6.2.14 on the intermediate.
        public static let intermediate = Markers(rawValue: 2)
        /// Both, as Apple's certificates have.
        public static let all: Markers = [.leaf, .intermediate]
    }

    /// Generates fresh keys and certificates.
    ///
    /// - Parameters:
    ///   - validity: when the root, intermediate and merchant CA are valid.
    ///   - leafValidity: when the signing leaf is valid; `validity` when nil.
    ///   - markers: which marker extensions to include.
    public init(validity: DateInterval, leafValidity: DateInterval? = nil, markers: Markers = .all) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let merchantCAKey = P256.Signing.PrivateKey()
        let rootName = try Self.appleName(commonName: "Test Apple Root CA - G3")
        let intermediateName = try Self.appleName(commonName: "Test Apple Application Integration CA - G3")
        let merchantCAName = try Self.appleName(commonName: "Test Apple Worldwide Developer Relations CA")

        root = try Self.certificate(
            subject: rootName, key: .init(rootKey.publicKey), validity: validity, issuer: rootName, issuerKey: rootKey,
            extensions: try Self.caExtensions(key: rootKey.publicKey, issuerKey: nil, marker: nil)
        )
        intermediate = try Self.certificate(
            subject: intermediateName, key: .init(intermediateKey.publicKey), validity: validity, issuer: rootName,
            issuerKey: rootKey,
            extensions: try Self.caExtensions(
                key: intermediateKey.publicKey, issuerKey: rootKey.publicKey,
                marker: markers.contains(.intermediate) ? CertificateChainVerifier.intermediateMarkerOID : nil
            )
        )
        merchantCA = try Self.certificate(
            subject: merchantCAName, key: .init(merchantCAKey.publicKey), validity: validity, issuer: rootName,
            issuerKey: rootKey,
            extensions: try Self.caExtensions(key: merchantCAKey.publicKey, issuerKey: rootKey.publicKey, marker: nil)
        )
        var leafExtensions = try Self.endEntityExtensions(
            key: .init(leafKey.publicKey), issuerKey: intermediateKey.publicKey, usage: KeyUsage(digitalSignature: true)
        )
        if markers.contains(.leaf) {
            try leafExtensions.append(Self.nullExtension(CertificateChainVerifier.leafMarkerOID))
        }
        leaf = try Self.certificate(
            subject: try DistinguishedName {
                CommonName("Test ecc-smp-broker-sign_UC4-SANDBOX")
                OrganizationalUnitName("iOS Systems")
                OrganizationName("Apple Inc.")
                CountryName("US")
            },
            key: .init(leafKey.publicKey), validity: leafValidity ?? validity, issuer: intermediateName,
            issuerKey: intermediateKey, extensions: leafExtensions
        )
        self.leafKey = leafKey
        self.merchantCAKey = merchantCAKey
        self.validity = validity
    }

    /// The certificates a token's signature carries after the leaf, as Apple sends them: the intermediate alone.
    public var signatureChain: [Certificate] { [intermediate] }

    /// A writer for token signatures by ``leaf``.
    public var signatureWriter: DetachedSignatureWriter {
        DetachedSignatureWriter(signerCertificate: leaf, signerKey: leafKey, chain: signatureChain)
    }

    /// Issues a merchant's payment processing certificate for `publicKey` (P-256 for EC_v1, RSA for RSA_v1) with
    /// the merchant identifier extension, as Apple's developer CA does.
    public func issuePaymentProcessingCertificate(
        merchantIdentifier: String, publicKey: Certificate.PublicKey, validity: DateInterval
    ) throws -> Certificate {
        let hash = SHA256.hash(data: Data(merchantIdentifier.utf8)).map { String(format: "%02X", $0) }.joined()
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1UTF8String(hash))
        var extensions = try Self.endEntityExtensions(
            key: publicKey, issuerKey: merchantCAKey.publicKey,
            usage: KeyUsage(keyEncipherment: true, keyAgreement: true)
        )
        try extensions.append(
            Certificate.Extension(
                oid: MerchantIdentity.merchantIdentifierExtensionOID, critical: false,
                value: ArraySlice(serializer.serializedBytes)
            )
        )
        return try Self.certificate(
            subject: try DistinguishedName {
                CommonName("Apple Pay Payment Processing:\(merchantIdentifier)")
                OrganizationalUnitName("TESTTEAM01")
                OrganizationName("Test Merchant")
                CountryName("US")
            },
            key: publicKey, validity: validity, issuer: merchantCA.subject, issuerKey: merchantCAKey,
            extensions: extensions
        )
    }

    /// The key type of a merchant identity: which scheme its tokens use.
    public enum MerchantKeyType: String, Hashable, Sendable, CaseIterable {
        /// ECDSA P-256, for EC_v1 tokens.
        case p256
        /// RSA 2048 bits, for RSA_v1 tokens.
        case rsa2048
    }

    /// A merchant's payment processing identity for tests: a fresh key of `key`'s type and a certificate for it,
    /// issued by ``merchantCA`` for `merchantIdentifier` and valid for ``validity``.
    public func makeMerchantIdentity(
        merchantIdentifier: String, key: MerchantKeyType = .p256
    ) throws -> MerchantIdentity {
        let privateKey: MerchantIdentity.PrivateKey
        let publicKey: Certificate.PublicKey
        switch key {
        case .p256:
            let ec = P256.KeyAgreement.PrivateKey()
            privateKey = .p256(ec)
            publicKey = .init(try P256.Signing.PublicKey(rawRepresentation: ec.publicKey.rawRepresentation))
        case .rsa2048:
            let rsa = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
            privateKey = .rsa(rsa)
            publicKey = .init(try _RSA.Signing.PublicKey(derRepresentation: rsa.publicKey.derRepresentation))
        }
        let certificate = try issuePaymentProcessingCertificate(
            merchantIdentifier: merchantIdentifier, publicKey: publicKey, validity: validity
        )
        return try MerchantIdentity(certificate: certificate, privateKey: privateKey)
    }

    // MARK: - Building certificates

    private static func appleName(commonName: String) throws -> DistinguishedName {
        try DistinguishedName {
            CommonName(commonName)
            OrganizationalUnitName("Apple Certification Authority")
            OrganizationName("Apple Inc.")
            CountryName("US")
        }
    }

    private static func certificate(
        subject: DistinguishedName, key: Certificate.PublicKey, validity: DateInterval, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey, extensions: Certificate.Extensions
    ) throws -> Certificate {
        try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key,
            notValidBefore: validity.start,
            notValidAfter: validity.end,
            issuer: issuer,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(issuerKey)
        )
    }

    /// A CA's extensions as Apple's G3 CAs have them: key identifiers, critical CA basic constraints, critical key
    /// usage keyCertSign + cRLSign, and the marker (value NULL) when given.
    private static func caExtensions(
        key: P256.Signing.PublicKey, issuerKey: P256.Signing.PublicKey?, marker: ASN1ObjectIdentifier?
    ) throws -> Certificate.Extensions {
        var extensions = try Certificate.Extensions {
            SubjectKeyIdentifier(hash: Certificate.PublicKey(key))
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        if let issuerKey {
            try extensions.append(
                Certificate.Extension(
                    AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: .init(issuerKey)).keyIdentifier),
                    critical: false
                )
            )
        }
        if let marker { try extensions.append(nullExtension(marker)) }
        return extensions
    }

    /// An end entity's extensions: critical CA:FALSE, key identifiers and the given critical key usage.
    private static func endEntityExtensions(
        key: Certificate.PublicKey, issuerKey: P256.Signing.PublicKey, usage: KeyUsage
    ) throws -> Certificate.Extensions {
        try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: .init(issuerKey)).keyIdentifier)
            SubjectKeyIdentifier(hash: key)
            Critical(usage)
        }
    }

    /// A non-critical extension whose value is DER NULL, as Apple's marker extensions are.
    private static func nullExtension(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }
}
