import ApplePay
import Crypto
import EMV
import Foundation
import SwiftASN1
@_spi(CMS) import X509

/// A small root → intermediate → leaf chain made per test, to re-sign real tokens' fields with chains that lack a
/// marker, are expired or do not chain; the project's full test token service lives in ApplePay/TokenService.
struct ThrowawayChain {
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate
    private let leafKey: P256.Signing.PrivateKey

    /// A chain; the options break one property each.
    init(
        leafMarker: Bool = true, intermediateMarker: Bool = true, leafSignedByStranger: Bool = false,
        leafValidity: ClosedRange<Date> = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 4_000_000_000)
    ) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let strangerKey = P256.Signing.PrivateKey()
        leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("Throwaway Root") }
        let intermediateName = try DistinguishedName { CommonName("Throwaway Intermediate") }
        let always = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 4_000_000_000)
        let marker: (ASN1ObjectIdentifier) -> Certificate.Extension = { oid in
            Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
        }
        root = try Self.certificate(
            subject: rootName, issuer: rootName, key: rootKey.publicKey, issuerKey: rootKey, validity: always,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            })
        intermediate = try Self.certificate(
            subject: intermediateName, issuer: rootName, key: intermediateKey.publicKey, issuerKey: rootKey,
            validity: always,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                if intermediateMarker { marker([1, 2, 840, 113_635, 100, 6, 2, 14]) }
            })
        leaf = try Self.certificate(
            subject: DistinguishedName { CommonName("Throwaway Leaf") }, issuer: intermediateName,
            key: leafKey.publicKey, issuerKey: leafSignedByStranger ? strangerKey : intermediateKey,
            validity: leafValidity,
            extensions: Certificate.Extensions {
                if leafMarker { marker([1, 2, 840, 113_635, 100, 6, 29]) }
            })
    }

    private static func certificate(
        subject: DistinguishedName, issuer: DistinguishedName, key: P256.Signing.PublicKey,
        issuerKey: P256.Signing.PrivateKey, validity: ClosedRange<Date>, extensions: Certificate.Extensions
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound, issuer: issuer, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }

    /// `paymentData` with its signature replaced by one of this chain's leaf over the same fields (DER, detached,
    /// with a signing time).
    func resign(_ paymentData: PaymentData, at signingTime: Date) throws -> PaymentData {
        let header = paymentData.header
        var content = try requireBytes(Data(base64Encoded: header.ephemeralPublicKey ?? header.wrappedKey ?? ""))
        content += try requireBytes(Data(base64Encoded: paymentData.data))
        content += try requireBytes([UInt8](hex: header.transactionId).map { Data($0) })
        if let applicationData = header.applicationData {
            content += try requireBytes([UInt8](hex: applicationData).map { Data($0) })
        }
        let signature = try CMS.sign(
            content, signatureAlgorithm: .ecdsaWithSHA256, additionalIntermediateCertificates: [intermediate],
            certificate: leaf, privateKey: Certificate.PrivateKey(leafKey), signingTime: signingTime, detached: true)
        var resigned = paymentData
        resigned.signature = Data(signature).base64EncodedString()
        return resigned
    }

    /// A decryptor trusting only this chain's root.
    func decryptor(merchants: [MerchantIdentity], now: Date) -> PaymentTokenDecryptor {
        PaymentTokenDecryptor(merchants: merchants, trustedRoots: [root], now: { now })
    }
}

/// `paymentData` carrying `payload` freshly encrypted (EC_v1) to `identity`, its header's applicationData set to
/// SHA-256 of `applicationData` when given: the fields still need signing (``ThrowawayChain/resign(_:at:)``).
func encrypt(
    _ payload: [UInt8], to identity: MerchantIdentity, like template: PaymentData, applicationData: [UInt8]? = nil
) throws -> PaymentData {
    guard case .p256 = identity.privateKey,
        let merchantKey = P256.KeyAgreement.PublicKey(identity.certificate.publicKey)
    else { throw CryptoKitError.incorrectKeySize }
    let ephemeral = P256.KeyAgreement.PrivateKey()
    let secret = Array(try ephemeral.sharedSecretFromKeyAgreement(with: merchantKey).withUnsafeBytes { Data($0) })
    let key = PaymentDataKeyDerivation.symmetricKey(
        sharedSecret: secret, merchantIdentifierHash: identity.merchantIdentifierHash)
    var paymentData = template
    paymentData.data = Data(try PaymentDataCipher.seal(payload, using: key)).base64EncodedString()
    paymentData.header.ephemeralPublicKey = ephemeral.publicKey.derRepresentation.base64EncodedString()
    paymentData.header.applicationData = applicationData.map { Array(SHA256.hash(data: $0)).hexString }
    return paymentData
}

extension P256.KeyAgreement.PublicKey {
    /// The P-256 key of a certificate, for key agreement.
    init?(_ key: Certificate.PublicKey) {
        guard let signing = P256.Signing.PublicKey(key),
            let agreement = try? Self(rawRepresentation: signing.rawRepresentation)
        else { return nil }
        self = agreement
    }
}

/// Unwraps an optional decoded value in a test helper, failing with a thrown error rather than a crash.
private func requireBytes(_ data: Data?) throws -> [UInt8] {
    guard let data else { throw CryptoKitError.incorrectParameterSize }
    return Array(data)
}
