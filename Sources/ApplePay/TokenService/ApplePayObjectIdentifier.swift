public import SwiftASN1

/// The certificate extensions by which Apple marks its Apple Pay certificates.
public enum ApplePayObjectIdentifier {
    /// On the leaf certificate that signs payment tokens ("ecc-smp-broker-sign").
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 29]
    /// On the intermediate that issues the leaf ("Apple Application Integration CA - G3").
    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 14]
    /// On a merchant's payment processing certificate: the merchant identifier's SHA-256, upper-case hex, as a
    /// UTF8String.
    public static let merchantIdentifier: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 32]
}
