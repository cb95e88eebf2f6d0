import Foundation

/// The recovered contents of an Issuer Public Key Certificate (tag 90), opened with a CA public key
/// (EMV Book 2, 5.3 and table 6).
///
/// Recovery checks the length, trailer, header and format; ``verify(remainder:exponent:pan:on:revokedSerialNumbers:)``
/// runs the rest of the checks and returns the issuer public key.
public struct IssuerPublicKeyCertificate: Sendable {
    /// Certificate format '02'.
    public static let format: UInt8 = 0x02

    let fields: CertifiedKeyFields

    /// Opens the certificate with the CA key the card names (RID of the AID, index in tag 8F).
    ///
    /// - Throws: ``ODAError/wrongLength``, ``ODAError/signatureOutOfRange``, ``ODAError/badTrailer``,
    ///   ``ODAError/badHeader``, ``ODAError/badFormat``, ``ODAError/keyTooLong``.
    public init(recovering certificate: some Collection<UInt8>, with caKey: CAPublicKey) throws {
        try self.init(recovering: certificate, with: caKey.key)
    }

    /// Opens the certificate with a bare CA RSA key.
    public init(recovering certificate: some Collection<UInt8>, with caKey: RSAPublicKey) throws {
        let name = "issuer public key certificate"
        let frame = try SignedDataFrame(recovering: certificate, with: caKey, format: Self.format, name: name)
        fields = try CertifiedKeyFields(frame: frame, identifierLength: 4, name: name)
    }

    /// The issuer identifier: the leftmost 3 to 8 PAN digits, `cn` padded with 'F' (4 bytes).
    public var issuerIdentifier: [UInt8] { fields.identifier }
    /// The expiration date as recorded, MMYY in BCD.
    public var expirationDate: [UInt8] { fields.expirationDate }
    /// The expiration date decoded; nil when not a valid MMYY.
    public var expiration: CertificateExpiration? { CertificateExpiration(mmyy: fields.expirationDate) }
    /// The certificate serial number the CA assigned (3 bytes).
    public var serialNumber: [UInt8] { fields.serialNumber }
    /// The hash algorithm indicator ('01' SHA-1).
    public var hashAlgorithmIndicator: UInt8 { fields.hashAlgorithmIndicator }
    /// The issuer public key algorithm indicator ('01' RSA).
    public var publicKeyAlgorithmIndicator: UInt8 { fields.publicKeyAlgorithmIndicator }
    /// The issuer public key modulus length N_I in bytes.
    public var publicKeyLength: Int { fields.publicKeyLength }
    /// The issuer public key exponent length in bytes.
    public var publicKeyExponentLength: Int { fields.exponentLength }
    /// The issuer public key modulus, or its leftmost N_CA - 36 bytes when it does not fit.
    public var leftmostModulus: [UInt8] { fields.leftmostModulus }
    /// How many modulus bytes the Issuer Public Key Remainder (tag 92) must carry.
    public var remainderLength: Int { fields.remainderLength }
    /// The hash result carried in the certificate.
    public var hashResult: [UInt8] { fields.frame.hashResult }

    /// Runs EMV Book 2, 5.3 steps 5 to 12 and returns the issuer public key.
    ///
    /// - Parameters:
    ///   - remainder: the Issuer Public Key Remainder (tag 92); empty when the card has none.
    ///   - exponent: the Issuer Public Key Exponent (tag 9F32).
    ///   - pan: the Application PAN (tag 5A) as read, `cn`.
    ///   - date: the transaction date; the certificate is valid through the last day of its expiration month.
    ///   - revokedSerialNumbers: certificate serial numbers revoked under this CA key (step 10).
    /// - Throws: ``ODAError/remainderMismatch``, ``ODAError/exponentMismatch``,
    ///   ``ODAError/unsupportedHashAlgorithm``, ``ODAError/hashMismatch``, ``ODAError/issuerIdentifierMismatch``,
    ///   ``ODAError/expired``, ``ODAError/revoked``, ``ODAError/unsupportedPublicKeyAlgorithm``,
    ///   ``ODAError/invalidKey``.
    public func verify(
        remainder: [UInt8],
        exponent: [UInt8],
        pan: [UInt8],
        on date: Date,
        revokedSerialNumbers: Set<[UInt8]> = []
    ) throws -> RSAPublicKey {
        try fields.verify(
            remainder: remainder,
            exponent: exponent,
            date: date,
            isRevoked: revokedSerialNumbers.contains(fields.serialNumber)
        ) {
            guard Self.issuerIdentifier(fields.identifier, matches: pan) else {
                throw ODAError(.issuerIdentifierMismatch, "issuer identifier does not match the leftmost PAN digits")
            }
        }
    }

    /// The issuer public key from the certificate, remainder and exponent, without the checks of
    /// ``verify(remainder:exponent:pan:on:revokedSerialNumbers:)``: for inspecting cards and vectors only.
    public func unverifiedPublicKey(remainder: [UInt8], exponent: [UInt8]) throws -> RSAPublicKey {
        try fields.publicKey(remainder: remainder, exponent: exponent)
    }

    /// Step 8: 3 to 8 identifier digits, equal to the PAN's leftmost digits.
    static func issuerIdentifier(_ identifier: [UInt8], matches pan: [UInt8]) -> Bool {
        guard let idDigits = CompressedNumeric.digits(identifier), (3...8).contains(idDigits.count),
            let panDigits = CompressedNumeric.digits(pan)
        else { return false }
        return panDigits.starts(with: idDigits)
    }
}
