import Foundation
import SwiftASN1
import X509

/// The parts of a token's detached CMS SignedData (RFC 5652) that verification needs, parsed from BER.
///
/// Apple's signatures are BER with indefinite lengths, so the structure is read with swift-asn1's BER parser
/// and walked by hand; the certificates inside are DER and parse as X.509. Anything unexpected is a
/// ``ApplePayError/Code/signatureMalformed``.
struct PaymentSignature {
    /// The certificates of the SignedData in order, as their DER bytes.
    let certificateDER: [ArraySlice<UInt8>]
    /// The DER of the issuer name of the signer's certificate.
    let signerIssuerDER: ArraySlice<UInt8>
    /// The serial number of the signer's certificate (INTEGER content).
    let signerSerial: ArraySlice<UInt8>
    /// The signed attributes as received, with the SET OF tag in place of `[0]`: the bytes the signature covers
    /// when the sender encoded them in DER, as CMS asks (RFC 5652 §5.4).
    let signedAttributesAsReceived: [UInt8]
    /// The parsed signed attributes, for ``signedAttributesDER()``.
    private let signedAttributes: ASN1Node
    /// The messageDigest attribute.
    let messageDigest: ArraySlice<UInt8>
    /// The signingTime attribute, when present.
    let signingTime: Date?
    /// The signature algorithm.
    let signatureAlgorithm: Certificate.SignatureAlgorithm
    /// The signature value.
    let signature: [UInt8]

    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
    static let sha256OID: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    static let contentTypeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 3]
    static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]
    static let signingTimeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 5]
    static let ecdsaWithSHA256OID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
    static let rsaEncryptionOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
    static let sha256WithRSAOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 11]

    /// Parses the BER (or DER) bytes of a ContentInfo holding a detached SignedData with one signer.
    ///
    /// The outline (ContentInfo, SignedData, the certificates) is walked with ``BEROutline``; only the small parts
    /// the checks read are parsed with swift-asn1.
    init(ber bytes: [UInt8]) throws {
        do {
            try self.init(bytes: bytes)
        } catch let error as ApplePayError {
            throw error
        } catch {
            throw Self.malformed("the signature is not valid BER")
        }
    }

    private init(bytes: [UInt8]) throws {
        let root = try BEROutline.element(in: bytes, at: 0, limit: bytes.count)
        guard root.end == bytes.count, root.identifier == 0x30 else {
            throw Self.malformed("the ContentInfo is not the expected constructed value")
        }
        func node(_ element: BEROutline) throws -> ASN1Node { try BER.parse(Array(bytes[element.start..<element.end])) }
        func children(_ element: BEROutline, _ identifier: UInt8, _ what: String) throws -> [BEROutline] {
            guard element.identifier == identifier else {
                throw Self.malformed("the \(what) is not the expected constructed value")
            }
            return try element.children(in: bytes)
        }
        let contentInfo = try children(root, 0x30, "ContentInfo")
        guard contentInfo.count == 2, try Self.oid(node(contentInfo[0])) == Self.signedDataOID else {
            throw Self.malformed("the ContentInfo is not SignedData")
        }
        let wrapper = try children(contentInfo[1], 0xA0, "ContentInfo content")
        guard wrapper.count == 1 else { throw Self.malformed("the ContentInfo content is not one SignedData") }
        let signedData = try children(wrapper[0], 0x30, "SignedData")
        guard signedData.count >= 4 else { throw Self.malformed("the SignedData is missing fields") }
        _ = try Self.integer(node(signedData[0]))
        for algorithm in try Self.children(of: node(signedData[1]), .set, "digestAlgorithms") {
            try Self.checkSHA256(algorithm)
        }
        let encapsulated = try Self.children(of: node(signedData[2]), .sequence, "encapContentInfo")
        guard encapsulated.count == 1, try Self.oid(encapsulated[0]) == Self.dataOID else {
            throw Self.malformed("the signature is not detached over id-data")
        }
        var index = 3
        var certificates: [ArraySlice<UInt8>] = []
        if signedData[index].identifier == 0xA0 {
            for certificate in try children(signedData[index], 0xA0, "certificates") {
                guard certificate.identifier == 0x30 else {
                    throw Self.malformed("an entry of the certificates is not a certificate")
                }
                certificates.append(bytes[certificate.start..<certificate.end])
            }
            index += 1
        }
        if index < signedData.count, signedData[index].identifier == 0xA1 { index += 1 }
        guard index == signedData.count - 1 else { throw Self.malformed("the SignedData has unexpected fields") }
        let signerInfos = try Self.children(of: node(signedData[index]), .set, "signerInfos")
        guard signerInfos.count == 1 else { throw Self.malformed("the SignedData has \(signerInfos.count) signers") }
        guard !certificates.isEmpty else { throw Self.malformed("the SignedData carries no certificates") }
        certificateDER = certificates

        let signer = try Self.children(of: signerInfos[0], .sequence, "SignerInfo")
        guard signer.count >= 6 else { throw Self.malformed("the SignerInfo is missing fields") }
        _ = try Self.integer(signer[0])
        let sid = try Self.children(of: signer[1], .sequence, "issuerAndSerialNumber")
        guard sid.count == 2, sid[0].identifier == .sequence else {
            throw Self.malformed("the signer is not named by issuer and serial number")
        }
        signerIssuerDER = sid[0].encodedBytes
        signerSerial = try Self.integer(sid[1])
        try Self.checkSHA256(signer[2])
        guard signer[3].identifier == .contextSpecific(0) else {
            throw Self.malformed("the SignerInfo has no signed attributes")
        }
        var attributes: [ASN1ObjectIdentifier: ASN1Node] = [:]
        for attribute in try Self.children(of: signer[3], .contextSpecific(0), "signedAttrs") {
            let parts = try Self.children(of: attribute, .sequence, "Attribute")
            guard parts.count == 2 else { throw Self.malformed("a signed attribute is not a type and values") }
            let type = try Self.oid(parts[0])
            let values = try Self.children(of: parts[1], .set, "attribute values")
            guard values.count == 1, attributes[type] == nil else {
                throw Self.malformed("a signed attribute is repeated or has \(values.count) values")
            }
            attributes[type] = values[0]
        }
        guard let contentType = attributes[Self.contentTypeOID], try Self.oid(contentType) == Self.dataOID else {
            throw Self.malformed("the contentType attribute is missing or not id-data")
        }
        guard let digest = attributes[Self.messageDigestOID], digest.identifier == .octetString,
            case .primitive(let digestBytes) = digest.content
        else { throw Self.malformed("the messageDigest attribute is missing") }
        messageDigest = digestBytes
        signingTime = try attributes[Self.signingTimeOID].map(Self.time)
        signedAttributes = signer[3]
        var received = Array(signer[3].encodedBytes)
        received[0] = 0x31
        signedAttributesAsReceived = received

        let signatureAlgorithm = try Self.children(of: signer[4], .sequence, "signatureAlgorithm")
        guard let algorithmOID = try signatureAlgorithm.first.map(Self.oid) else {
            throw Self.malformed("the signature algorithm is empty")
        }
        switch algorithmOID {
        case Self.ecdsaWithSHA256OID: self.signatureAlgorithm = .ecdsaWithSHA256
        case Self.rsaEncryptionOID, Self.sha256WithRSAOID: self.signatureAlgorithm = .sha256WithRSAEncryption
        default: throw Self.malformed("the signature algorithm is neither ECDSA nor RSA with SHA-256")
        }
        signature = try Self.octets(signer[5])
    }

    /// The signed attributes re-encoded as DER with the SET OF tag: the bytes the signature covers when the sender
    /// encoded them in BER.
    func signedAttributesDER() throws -> [UInt8] {
        try DERReencoder.encode(signedAttributes, identifierOctets: [0x31])
    }

    // MARK: - Node helpers

    static func malformed(_ message: String) -> ApplePayError {
        ApplePayError(code: .signatureMalformed, message: message)
    }

    private static func children(
        of node: ASN1Node, _ identifier: ASN1Identifier, _ what: String
    ) throws -> [ASN1Node] {
        guard node.identifier == identifier, case .constructed(let nodes) = node.content else {
            throw malformed("the \(what) is not the expected constructed value")
        }
        return Array(nodes)
    }

    private static func oid(_ node: ASN1Node) throws -> ASN1ObjectIdentifier {
        do {
            return try ASN1ObjectIdentifier(derEncoded: node)
        } catch {
            throw malformed("an object identifier is malformed")
        }
    }

    private static func integer(_ node: ASN1Node) throws -> ArraySlice<UInt8> {
        guard node.identifier == .integer, case .primitive(let bytes) = node.content, !bytes.isEmpty else {
            throw malformed("an INTEGER is malformed")
        }
        return bytes
    }

    /// An OCTET STRING's content, joining the segments of a constructed (BER) one.
    private static func octets(_ node: ASN1Node) throws -> [UInt8] {
        guard node.identifier == .octetString else { throw malformed("an OCTET STRING is malformed") }
        switch node.content {
        case .primitive(let bytes):
            return Array(bytes)
        case .constructed(let segments):
            return try segments.flatMap(octets)
        }
    }

    /// An AlgorithmIdentifier for SHA-256, its parameters NULL or absent.
    private static func checkSHA256(_ node: ASN1Node) throws {
        let parts = try children(of: node, .sequence, "digest AlgorithmIdentifier")
        guard let first = parts.first, try oid(first) == sha256OID else {
            throw malformed("the digest algorithm is not SHA-256")
        }
        guard parts.count == 1 || (parts.count == 2 && (try? ASN1Null(derEncoded: parts[1])) != nil) else {
            throw malformed("the SHA-256 parameters are neither NULL nor absent")
        }
    }

    /// A UTCTime or GeneralizedTime as a date.
    private static func time(_ node: ASN1Node) throws -> Date {
        let components: (year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int)
        if let time = try? UTCTime(derEncoded: node) {
            components = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        } else if let time = try? GeneralizedTime(derEncoded: node) {
            components = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        } else {
            throw malformed("the signingTime attribute is not a UTCTime or GeneralizedTime")
        }
        let days = daysFromCivil(year: components.year, month: components.month, day: components.day)
        let seconds = ((days * 24 + components.hours) * 60 + components.minutes) * 60 + components.seconds
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension ASN1Identifier {
    /// A context-specific tag `[number]`.
    fileprivate static func contextSpecific(_ number: UInt) -> ASN1Identifier {
        ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }
}
