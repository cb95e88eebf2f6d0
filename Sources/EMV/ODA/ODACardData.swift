import Foundation

/// The data objects offline data authentication reads from the card, collected from its parsed responses into
/// the byte form the ODA types take.
///
/// They arrive spread over READ RECORD responses (and, for fDDA, the GET PROCESSING OPTIONS response): CA Public
/// Key Index (8F); the issuer certificate, remainder and exponent (90, 92, 9F32); the ICC certificate, exponent and
/// remainder (9F46, 9F47, 9F48); Signed Static Application Data (93); Signed Dynamic Application Data (9F4B); and the
/// Static Data Authentication Tag List (9F4A).
///
/// ```swift
/// var card = ODACardData()
/// for record in records { try card.collect(from: TLV.parse(record, rules: .lenient)) }
/// let issuerKey = try card.issuerPublicKey(caKeys: caKeys, rid: Array(aid.prefix(5)), pan: pan, on: today)
/// let iccKey = try card.iccPublicKey(issuerKey: issuerKey, staticData: staticData, pan: pan, on: today)
/// ```
///
/// For CDA, whose 9F4B comes with each GENERATE AC response, see
/// ``SignedDynamicApplicationData/verifyCDA(generateACResponse:iccKey:unpredictableNumber:pdolData:cdol1Data:cdol2Data:)``.
public struct ODACardData: Hashable, Sendable {
    /// The tags collected.
    public static let tags: [Tag] = [
        .caPublicKeyIndex, .issuerPublicKeyCertificate, .issuerPublicKeyRemainder, .issuerPublicKeyExponent,
        .iccPublicKeyCertificate, .iccPublicKeyExponent, .iccPublicKeyRemainder, .signedStaticApplicationData,
        .signedDynamicApplicationData, .staticDataAuthenticationTagList,
    ]

    private var values: [Tag: [UInt8]] = [:]

    /// Creates an empty collection.
    public init() {}

    /// Collects from each of `responses` in turn; see ``collect(from:)``.
    public init(collecting responses: some Sequence<TLVNodeCollection>) throws(ODAError) {
        for nodes in responses { try collect(from: nodes) }
    }

    /// Adds the objects with one of ``tags`` found in `nodes` at any depth (inside a record's '70' template or a
    /// response's '77' template), copying their values.
    ///
    /// - Throws: ``ODAError/duplicateDataObject`` when one was already collected or appears twice in `nodes`;
    ///   nothing is added then.
    public mutating func collect(from nodes: TLVNodeCollection) throws(ODAError) {
        var found: [Tag: [UInt8]] = [:]
        for tag in Self.tags {
            let objects = nodes.all(tag)
            guard objects.count <= 1, objects.isEmpty || values[tag] == nil else {
                throw ODAError(.duplicateDataObject, "the card sent tag \(tag) more than once")
            }
            if let object = objects.first { found[tag] = Array(object.value) }
        }
        values.merge(found) { old, _ in old }
    }

    /// The collected value of `tag`; nil when the card did not send it.
    public subscript(tag: Tag) -> [UInt8]? { values[tag] }

    /// The CA Public Key Index (8F); nil when absent or not one byte.
    public var caPublicKeyIndex: UInt8? {
        guard let value = values[.caPublicKeyIndex], value.count == 1 else { return nil }
        return value[0]
    }

    /// The issuer certificate (90) with its remainder (92, empty when absent) and exponent (9F32); nil unless the
    /// card sent both 90 and 9F32.
    public var issuerCertificate: IssuedCertificate? {
        certificate(
            .issuerPublicKeyCertificate, remainder: .issuerPublicKeyRemainder, exponent: .issuerPublicKeyExponent)
    }

    /// The ICC certificate (9F46) with its remainder (9F48, empty when absent) and exponent (9F47); nil unless the
    /// card sent both 9F46 and 9F47.
    public var iccCertificate: IssuedCertificate? {
        certificate(.iccPublicKeyCertificate, remainder: .iccPublicKeyRemainder, exponent: .iccPublicKeyExponent)
    }

    /// Signed Static Application Data (93), for SDA.
    public var signedStaticApplicationData: [UInt8]? { values[.signedStaticApplicationData] }

    /// Signed Dynamic Application Data (9F4B), for fDDA (from the GET PROCESSING OPTIONS response).
    public var signedDynamicApplicationData: [UInt8]? { values[.signedDynamicApplicationData] }

    /// The Static Data Authentication Tag List (9F4A), for ``StaticDataToBeAuthenticated``.
    public var staticDataAuthenticationTagList: [UInt8]? { values[.staticDataAuthenticationTagList] }

    /// Recovers and verifies the issuer public key (EMV Book 2, 5.3) with the CA key the card names in 8F.
    ///
    /// - Parameters:
    ///   - caKeys: the terminal's CA public keys.
    ///   - rid: the registered application provider identifier, the first 5 bytes of the AID.
    ///   - pan: the Application PAN (5A) as read, `cn`.
    ///   - date: the transaction date.
    ///   - revokedSerialNumbers: issuer certificate serial numbers revoked under the CA key.
    /// - Throws: ``ODAError/missingData`` without 8F, 90 or 9F32; ``ODAError/caKeyNotFound``; and the errors of
    ///   ``IssuerPublicKeyCertificate/init(recovering:with:)-(_,CAPublicKey)`` and
    ///   ``IssuerPublicKeyCertificate/verify(remainder:exponent:pan:on:revokedSerialNumbers:)``.
    public func issuerPublicKey(
        caKeys: CAPublicKeyList, rid: [UInt8], pan: [UInt8], on date: Date, revokedSerialNumbers: Set<[UInt8]> = []
    ) throws -> RSAPublicKey {
        guard let index = caPublicKeyIndex else {
            throw ODAError(.missingData, "no one-byte CA public key index (8F)")
        }
        guard let issued = issuerCertificate else {
            throw ODAError(.missingData, "no issuer public key certificate (90) and exponent (9F32)")
        }
        let certificate = try IssuerPublicKeyCertificate(
            recovering: issued.certificate, with: caKeys.key(rid: rid, index: index))
        return try certificate.verify(
            remainder: issued.remainder, exponent: issued.exponent, pan: pan, on: date,
            revokedSerialNumbers: revokedSerialNumbers)
    }

    /// Recovers and verifies the ICC public key (EMV Book 2, 6.4) with the issuer public key.
    ///
    /// - Throws: ``ODAError/missingData`` without 9F46 or 9F47, and the errors of
    ///   ``ICCPublicKeyCertificate/init(recovering:with:)`` and
    ///   ``ICCPublicKeyCertificate/verify(remainder:exponent:staticData:pan:on:)``.
    public func iccPublicKey(
        issuerKey: RSAPublicKey, staticData: StaticDataToBeAuthenticated, pan: [UInt8], on date: Date
    ) throws -> RSAPublicKey {
        guard let issued = iccCertificate else {
            throw ODAError(.missingData, "no ICC public key certificate (9F46) and exponent (9F47)")
        }
        return try ICCPublicKeyCertificate(recovering: issued.certificate, with: issuerKey).verify(
            remainder: issued.remainder, exponent: issued.exponent, staticData: staticData.bytes, pan: pan, on: date)
    }

    private func certificate(_ certificate: Tag, remainder: Tag, exponent: Tag) -> IssuedCertificate? {
        guard let signed = values[certificate], let exponent = values[exponent] else { return nil }
        return IssuedCertificate(certificate: signed, remainder: values[remainder] ?? [], exponent: exponent)
    }
}
