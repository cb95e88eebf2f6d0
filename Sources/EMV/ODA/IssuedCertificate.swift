/// A public key certificate as a card carries it: the certificate, the modulus bytes that did not fit, and the
/// exponent (tags 90, 92, 9F32 for an issuer key; 9F46, 9F48, 9F47 for an ICC key).
public struct IssuedCertificate: Hashable, Sendable {
    /// The signed certificate, as long as the certifying key's modulus.
    public let certificate: [UInt8]
    /// The modulus bytes that did not fit in the certificate; empty when none (the card then omits the tag).
    public let remainder: [UInt8]
    /// The certified key's exponent.
    public let exponent: [UInt8]

    /// Creates the bundle.
    public init(certificate: [UInt8], remainder: [UInt8], exponent: [UInt8]) {
        self.certificate = certificate
        self.remainder = remainder
        self.exponent = exponent
    }
}
