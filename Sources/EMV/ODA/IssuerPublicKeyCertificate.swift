import Foundation

/// An Issuer Public Key Certificate (tag 90) opened with a CA public key (EMV Book 2, 5.3 and table 6).
///
/// Recovery checks the length, trailer, header and format; ``verify(remainder:exponent:pan:on:revokedSerialNumbers:)``
/// runs the rest of the checks and returns the issuer public key.
public struct IssuerPublicKeyCertificate: Sendable, CustomStringConvertible {
    /// Certificate format '02'.
    public static let format: UInt8 = 0x02

    /// The recovered fields; ``PublicKeyCertificateContents/identifier`` is the issuer identifier.
    public let contents: PublicKeyCertificateContents

    /// Opens the certificate with the CA key the card names (RID of the AID, index in tag 8F).
    ///
    /// - Throws: ``ODAError/wrongLength``, ``ODAError/signatureOutOfRange``, ``ODAError/badTrailer``,
    ///   ``ODAError/badHeader``, ``ODAError/badFormat``, ``ODAError/keyTooLong``.
    public init(recovering certificate: some Collection<UInt8>, with caKey: CAPublicKey) throws {
        try self.init(recovering: certificate, with: caKey.key)
    }

    /// Opens the certificate with a bare CA RSA key.
    public init(recovering certificate: some Collection<UInt8>, with caKey: RSAPublicKey) throws {
        contents = try PublicKeyCertificateContents(
            recovering: certificate,
            with: caKey,
            format: Self.format,
            identifierLength: 4,
            name: "issuer public key certificate"
        )
    }

    /// The issuer identifier: the leftmost 3 to 8 PAN digits, `cn` padded with 'F' (4 bytes).
    public var issuerIdentifier: [UInt8] { contents.identifier }

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
        try contents.verify(
            remainder: remainder,
            exponent: exponent,
            date: date,
            isRevoked: revokedSerialNumbers.contains(contents.serialNumber)
        ) {
            guard let idDigits = try? BCD.compressedNumericDigits(contents.identifier),
                (3...8).contains(idDigits.count),
                let panDigits = try? BCD.compressedNumericDigits(pan), panDigits.starts(with: idDigits)
            else {
                throw ODAError(.issuerIdentifierMismatch, "issuer identifier does not match the leftmost PAN digits")
            }
        }
    }

    /// Key size, expiry and serial number.
    public var description: String { contents.description }
}
