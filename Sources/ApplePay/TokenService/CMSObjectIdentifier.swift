import SwiftASN1

/// The object identifiers a token signature uses (RFC 5652, RFC 5754, RFC 5758, RFC 6211).
enum CMSObjectIdentifier {
    /// id-signedData.
    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    /// id-data.
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
    /// id-contentType.
    static let contentType: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 3]
    /// id-messageDigest.
    static let messageDigest: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]
    /// id-signingTime.
    static let signingTime: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 5]
    /// id-aa-CMSAlgorithmProtection.
    static let algorithmProtection: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 52]
    /// id-sha256.
    static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    /// ecdsa-with-SHA256.
    static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10_045, 4, 3, 2]
}
