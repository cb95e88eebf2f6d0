public import Crypto
public import Foundation
import SwiftASN1
public import X509

/// Writes a detached CMS SignedData (RFC 5652) the way Apple's token service does: BER with indefinite lengths on
/// the outer layers, certificates `[signer, intermediate]`, one SignerInfo with the signed attributes contentType,
/// signingTime, CMS algorithm protection (RFC 6211) and messageDigest, SHA-256 and ecdsa-with-SHA256.
///
/// The certificates and the SignerInfo inside are DER, as in Apple's signatures; only the ContentInfo, the
/// SignedData, its encapsulated content info and the certificate set use the indefinite form.
public struct DetachedSignatureWriter: Sendable {
    /// The certificate whose key signs, first in the certificate set.
    public var signerCertificate: Certificate
    /// The signer's private key (ECDSA P-256, as Apple's leaf).
    public var signerKey: P256.Signing.PrivateKey
    /// Certificates after the signer's, in order (Apple sends the intermediate only).
    public var chain: [Certificate]
    /// Whether to include the RFC 6211 algorithm protection attribute (Apple's signatures carry it).
    public var includesAlgorithmProtection: Bool

    /// A writer signing with `signerKey` under `signerCertificate`, sending `chain` after it.
    public init(
        signerCertificate: Certificate, signerKey: P256.Signing.PrivateKey, chain: [Certificate],
        includesAlgorithmProtection: Bool = true
    ) {
        self.signerCertificate = signerCertificate
        self.signerKey = signerKey
        self.chain = chain
        self.includesAlgorithmProtection = includesAlgorithmProtection
    }

    /// id-aa-CMSAlgorithmProtection (RFC 6211).
    static let algorithmProtectionOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 52]
    /// ecdsa-with-SHA256 (RFC 5758).
    static let ecdsaWithSHA256OID: ASN1ObjectIdentifier = [1, 2, 840, 10_045, 4, 3, 2]

    /// The BER bytes of a detached signature over `content`, signed at `signingTime`.
    public func signature(over content: some DataProtocol, signingTime: Date) throws -> [UInt8] {
        let signedAttributes = try Self.signedAttributes(
            digest: Array(SHA256.hash(data: content)), signingTime: signingTime,
            algorithmProtection: includesAlgorithmProtection
        )
        // The signature covers the attributes as a DER SET OF (tag 31), not as the [0] they are sent under.
        var toSign = DER.Serializer()
        toSign.appendConstructedNode(identifier: .set) { $0.serializeRawBytes(signedAttributes) }
        let signature = try signerKey.signature(for: toSign.serializedBytes).derRepresentation

        var serializer = DER.Serializer()
        try serializer.appendIndefiniteConstructedNode(identifier: .sequence) { contentInfo in
            try contentInfo.serialize(PaymentSignature.signedDataOID)
            try contentInfo.appendIndefiniteConstructedNode(identifier: .explicitZero) { explicit in
                try explicit.appendIndefiniteConstructedNode(identifier: .sequence) { signedData in
                    try signedData.serialize(1)
                    try signedData.appendConstructedNode(identifier: .set) { try Self.sha256Identifier(into: &$0) }
                    try signedData.appendIndefiniteConstructedNode(identifier: .sequence) { encapsulated in
                        try encapsulated.serialize(PaymentSignature.dataOID)
                    }
                    try signedData.appendIndefiniteConstructedNode(identifier: .explicitZero) { certificates in
                        for certificate in [signerCertificate] + chain { try certificates.serialize(certificate) }
                    }
                    try signedData.appendConstructedNode(identifier: .set) { signerInfos in
                        try signerInfos.appendConstructedNode(identifier: .sequence) { signerInfo in
                            try signerInfo.serialize(1)
                            try signerInfo.appendConstructedNode(identifier: .sequence) { issuerAndSerial in
                                try issuerAndSerial.serialize(signerCertificate.issuer)
                                try issuerAndSerial.serialize(signerCertificate.serialNumber.bytes)
                            }
                            try Self.sha256Identifier(into: &signerInfo)
                            signerInfo.appendConstructedNode(identifier: .explicitZero) {
                                $0.serializeRawBytes(signedAttributes)
                            }
                            try Self.ecdsaWithSHA256Identifier(into: &signerInfo)
                            try signerInfo.serialize(ASN1OctetString(contentBytes: ArraySlice(signature)))
                        }
                    }
                }
            }
        }
        return serializer.serializedBytes
    }

    /// The DER attributes, sorted by their encoding as a DER SET OF must be, concatenated without the SET header.
    static func signedAttributes(digest: [UInt8], signingTime: Date, algorithmProtection: Bool) throws -> [UInt8] {
        var attributes = [
            try attribute(PaymentSignature.contentTypeOID) { try $0.serialize(PaymentSignature.dataOID) },
            try attribute(PaymentSignature.signingTimeOID) { try Self.serializeTime(signingTime, into: &$0) },
            try attribute(PaymentSignature.messageDigestOID) {
                try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(digest)))
            },
        ]
        if algorithmProtection {
            // CMSAlgorithmProtection ::= SEQUENCE { digestAlgorithm, signatureAlgorithm [1] IMPLICIT, … }
            attributes.append(
                try attribute(Self.algorithmProtectionOID) { value in
                    try value.appendConstructedNode(identifier: .sequence) { protection in
                        try sha256Identifier(into: &protection)
                        try protection.appendConstructedNode(
                            identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)
                        ) { try $0.serialize(Self.ecdsaWithSHA256OID) }
                    }
                }
            )
        }
        return attributes.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }
    }

    /// `Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }` with one value.
    private static func attribute(
        _ type: ASN1ObjectIdentifier, value: (inout DER.Serializer) throws -> Void
    ) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { attribute in
            try attribute.serialize(type)
            try attribute.appendConstructedNode(identifier: .set, value)
        }
        return serializer.serializedBytes
    }

    /// SHA-256's AlgorithmIdentifier with explicit NULL parameters, as Apple writes it.
    private static func sha256Identifier(into serializer: inout DER.Serializer) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { algorithm in
            try algorithm.serialize(PaymentSignature.sha256OID)
            try algorithm.serialize(ASN1Null())
        }
    }

    /// ecdsa-with-SHA256's AlgorithmIdentifier, which has no parameters (RFC 5758).
    private static func ecdsaWithSHA256Identifier(into serializer: inout DER.Serializer) throws {
        try serializer.appendConstructedNode(identifier: .sequence) {
            try $0.serialize(Self.ecdsaWithSHA256OID)
        }
    }

    /// RFC 5652 §11.3: UTCTime for 1950 through 2049, GeneralizedTime otherwise.
    private static func serializeTime(_ date: Date, into serializer: inout DER.Serializer) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = parts.year ?? 0, month = parts.month ?? 0, day = parts.day ?? 0
        let hours = parts.hour ?? 0, minutes = parts.minute ?? 0, seconds = parts.second ?? 0
        if (1950...2049).contains(year) {
            try serializer.serialize(
                UTCTime(year: year, month: month, day: day, hours: hours, minutes: minutes, seconds: seconds)
            )
        } else {
            try serializer.serialize(
                GeneralizedTime(
                    year: year, month: month, day: day, hours: hours, minutes: minutes, seconds: seconds,
                    fractionalSeconds: 0
                )
            )
        }
    }
}

extension ASN1Identifier {
    /// `[0]` constructed, context-specific: SignedData's content and certificates, SignerInfo's signed attributes.
    fileprivate static let explicitZero = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
}
