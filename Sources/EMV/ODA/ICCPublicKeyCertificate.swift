import Foundation

/// The recovered contents of an ICC Public Key Certificate (tag 9F46), opened with the issuer public key
/// (EMV Book 2, 6.4 and table 14).
///
/// Recovery checks the length, trailer, header and format; ``verify(remainder:exponent:staticData:pan:on:)`` runs the
/// rest of the checks and returns the ICC public key. Its `description` never shows the PAN.
public struct ICCPublicKeyCertificate: Sendable, CustomStringConvertible {
    /// Certificate format '04'.
    public static let format: UInt8 = 0x04

    let fields: CertifiedKeyFields

    /// Opens the certificate with the issuer public key.
    ///
    /// - Throws: ``ODAError/wrongLength``, ``ODAError/signatureOutOfRange``, ``ODAError/badTrailer``,
    ///   ``ODAError/badHeader``, ``ODAError/badFormat``, ``ODAError/keyTooLong``.
    public init(recovering certificate: some Collection<UInt8>, with issuerKey: RSAPublicKey) throws {
        let name = "ICC public key certificate"
        let frame = try SignedDataFrame(recovering: certificate, with: issuerKey, format: Self.format, name: name)
        fields = try CertifiedKeyFields(frame: frame, identifierLength: 10, name: name)
    }

    /// The application PAN the certificate binds the key to, `cn` padded with 'F' (10 bytes). Sensitive.
    public var applicationPAN: [UInt8] { fields.identifier }
    /// The expiration date as recorded, MMYY in BCD.
    public var expirationDate: [UInt8] { fields.expirationDate }
    /// The expiration date decoded; nil when not a valid MMYY.
    public var expiration: CertificateExpiration? { CertificateExpiration(mmyy: fields.expirationDate) }
    /// The certificate serial number the issuer assigned (3 bytes).
    public var serialNumber: [UInt8] { fields.serialNumber }
    /// The hash algorithm indicator ('01' SHA-1).
    public var hashAlgorithmIndicator: UInt8 { fields.hashAlgorithmIndicator }
    /// The ICC public key algorithm indicator ('01' RSA).
    public var publicKeyAlgorithmIndicator: UInt8 { fields.publicKeyAlgorithmIndicator }
    /// The ICC public key modulus length N_IC in bytes.
    public var publicKeyLength: Int { fields.publicKeyLength }
    /// The ICC public key exponent length in bytes.
    public var publicKeyExponentLength: Int { fields.exponentLength }
    /// The ICC public key modulus, or its leftmost N_I - 42 bytes when it does not fit.
    public var leftmostModulus: [UInt8] { fields.leftmostModulus }
    /// How many modulus bytes the ICC Public Key Remainder (tag 9F48) must carry.
    public var remainderLength: Int { fields.remainderLength }
    /// The hash result carried in the certificate.
    public var hashResult: [UInt8] { fields.frame.hashResult }

    /// Runs EMV Book 2, 6.4 steps 5 to 11 and returns the ICC public key.
    ///
    /// - Parameters:
    ///   - remainder: the ICC Public Key Remainder (tag 9F48); empty when the card has none.
    ///   - exponent: the ICC Public Key Exponent (tag 9F47).
    ///   - staticData: the static data to be authenticated (see ``StaticDataToBeAuthenticated``).
    ///   - pan: the Application PAN (tag 5A) as read, `cn`.
    ///   - date: the transaction date; the certificate is valid through the last day of its expiration month.
    /// - Throws: ``ODAError/remainderMismatch``, ``ODAError/exponentMismatch``,
    ///   ``ODAError/unsupportedHashAlgorithm``, ``ODAError/hashMismatch``, ``ODAError/panMismatch``,
    ///   ``ODAError/expired``, ``ODAError/unsupportedPublicKeyAlgorithm``, ``ODAError/invalidKey``.
    public func verify(
        remainder: [UInt8],
        exponent: [UInt8],
        staticData: [UInt8],
        pan: [UInt8],
        on date: Date
    ) throws -> RSAPublicKey {
        try fields.verify(remainder: remainder, exponent: exponent, extraHashed: [staticData], date: date) {
            guard let certified = CompressedNumeric.digits(fields.identifier), !certified.isEmpty,
                certified == CompressedNumeric.digits(pan)
            else {
                throw ODAError(.panMismatch, "certified PAN does not match the application PAN")
            }
        }
    }

    /// The ICC public key from the certificate, remainder and exponent, without the checks of
    /// ``verify(remainder:exponent:staticData:pan:on:)``: for inspecting cards and vectors only.
    public func unverifiedPublicKey(remainder: [UInt8], exponent: [UInt8]) throws -> RSAPublicKey {
        try fields.publicKey(remainder: remainder, exponent: exponent)
    }

    /// Key size, expiry and serial number; never the PAN.
    public var description: String {
        "ICCPublicKeyCertificate(\(publicKeyLength * 8)-bit key, expires \(expiration?.description ?? "invalid"), "
            + "serial \(serialNumber.hexString))"
    }
}
