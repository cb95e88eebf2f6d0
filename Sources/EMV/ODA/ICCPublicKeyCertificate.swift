import Foundation

/// An ICC Public Key Certificate (tag 9F46) opened with the issuer public key (EMV Book 2, 6.4 and table 14).
///
/// Recovery checks the length, trailer, header and format; ``verify(remainder:exponent:staticData:pan:on:)`` runs the
/// rest of the checks and returns the ICC public key. Its `description` never shows the PAN.
public struct ICCPublicKeyCertificate: Sendable, CustomStringConvertible {
    /// Certificate format '04'.
    public static let format: UInt8 = 0x04

    /// The recovered fields; ``PublicKeyCertificateContents/identifier`` is the application PAN.
    public let contents: PublicKeyCertificateContents

    /// Opens the certificate with the issuer public key.
    ///
    /// - Throws: ``ODAError/wrongLength``, ``ODAError/signatureOutOfRange``, ``ODAError/badTrailer``,
    ///   ``ODAError/badHeader``, ``ODAError/badFormat``, ``ODAError/keyTooLong``.
    public init(recovering certificate: some Collection<UInt8>, with issuerKey: RSAPublicKey) throws {
        contents = try PublicKeyCertificateContents(
            recovering: certificate,
            with: issuerKey,
            format: Self.format,
            identifierLength: 10,
            name: "ICC public key certificate"
        )
    }

    /// The application PAN the certificate binds the key to, `cn` padded with 'F' (10 bytes). Sensitive.
    public var applicationPAN: [UInt8] { contents.identifier }

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
        try contents.verify(remainder: remainder, exponent: exponent, extraHashed: [staticData], date: date) {
            guard let certified = try? BCD.compressedNumericDigits(contents.identifier), !certified.isEmpty,
                certified == (try? BCD.compressedNumericDigits(pan))
            else {
                throw ODAError(.panMismatch, "certified PAN does not match the application PAN")
            }
        }
    }

    /// Key size, expiry and serial number; never the PAN.
    public var description: String { contents.description }
}
