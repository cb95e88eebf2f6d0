import Foundation

/// The recovered fields issuer ('02') and ICC ('04') public key certificates share (EMV Book 2, tables 6 and 14):
/// an identifier (issuer identifier or PAN), expiration date, serial number, algorithm indicators, key and exponent
/// lengths, and the leftmost bytes of the certified modulus; with the checks both certificates go through.
///
/// Its `description` leaves out the identifier, which is a PAN in ICC certificates.
public struct PublicKeyCertificateContents: Sendable, CustomStringConvertible {
    let frame: SignedDataFrame
    let name: String
    /// The issuer identifier (4 bytes, issuer certificate) or the application PAN (10 bytes, ICC certificate), `cn`
    /// padded with 'F'.
    public let identifier: [UInt8]
    /// The expiration date as recorded, MMYY in BCD.
    public let expirationDate: [UInt8]
    /// The certificate serial number (3 bytes).
    public let serialNumber: [UInt8]
    /// The hash algorithm indicator ('01' SHA-1).
    public let hashAlgorithmIndicator: UInt8
    /// The certified key's algorithm indicator ('01' RSA).
    public let publicKeyAlgorithmIndicator: UInt8
    /// The certified modulus length in bytes (N_I or N_IC).
    public let publicKeyLength: Int
    /// The certified exponent length in bytes.
    public let exponentLength: Int
    /// The certified modulus, or its leftmost bytes when it does not fit (N_CA - 36 or N_I - 42 bytes).
    public let leftmostModulus: [UInt8]

    /// Opens a certificate and splits the recovered data: identifier | MMYY (2) | serial (3) | hash algorithm |
    /// key algorithm | key length | exponent length | key or its leftmost bytes, padded with 'BB'.
    init(
        recovering certificate: some Collection<UInt8>,
        with key: RSAPublicKey,
        format: UInt8,
        identifierLength: Int,
        name: String
    ) throws {
        let frame = try SignedDataFrame(recovering: certificate, with: key, format: format, name: name)
        let data = Array(frame.data)
        let i = identifierLength
        // data is N - 23 >= 41 bytes and i + 9 <= 19, so every index exists.
        self.frame = frame
        self.name = name
        identifier = Array(data[0..<i])
        expirationDate = Array(data[i..<(i + 2)])
        serialNumber = Array(data[(i + 2)..<(i + 5)])
        hashAlgorithmIndicator = data[i + 5]
        publicKeyAlgorithmIndicator = data[i + 6]
        publicKeyLength = Int(data[i + 7])
        exponentLength = Int(data[i + 8])
        // EMV Book 2, 5.1 and 6.1: a certified key is never longer than the key that certifies it.
        guard publicKeyLength <= frame.recovered.count else {
            throw ODAError(
                .keyTooLong, "\(name) certifies a \(publicKeyLength)-byte key with a \(frame.recovered.count)-byte key")
        }
        leftmostModulus = Array(data[(i + 9)...].prefix(publicKeyLength))
    }

    /// The expiration date decoded; nil when not a valid MMYY.
    public var expiration: CertificateExpiration? { CertificateExpiration(mmyy: expirationDate) }

    /// How many modulus bytes the remainder tag (92 or 9F48) must carry.
    public var remainderLength: Int { publicKeyLength - leftmostModulus.count }

    /// The hash result carried in the certificate.
    public var hashResult: [UInt8] { frame.hashResult }

    /// The certified key from the leftmost bytes, the remainder and the exponent, without the certificate's
    /// checks: for inspecting cards and vectors only.
    ///
    /// - Throws: ``ODAError/remainderMismatch``, ``ODAError/exponentMismatch``, ``ODAError/invalidKey``.
    public func unverifiedPublicKey(remainder: [UInt8], exponent: [UInt8]) throws -> RSAPublicKey {
        try checkLengths(remainder: remainder, exponent: exponent)
        return try RSAPublicKey(modulus: leftmostModulus + remainder, exponent: exponent)
    }

    /// The remainder must complete the modulus and the exponent must have the certified length.
    private func checkLengths(remainder: [UInt8], exponent: [UInt8]) throws {
        guard remainder.count == remainderLength else {
            throw ODAError(
                .remainderMismatch,
                "\(name) needs a \(remainderLength)-byte remainder, got \(remainder.count) bytes"
            )
        }
        guard exponent.count == exponentLength else {
            throw ODAError(
                .exponentMismatch, "\(name) certifies a \(exponentLength)-byte exponent, got \(exponent.count)")
        }
    }

    /// EMV Book 2, 5.3 steps 5 to 12 (6.4 steps 5 to 11): hash, identifier, expiry, revocation, key algorithm,
    /// then the key.
    func verify(
        remainder: [UInt8],
        exponent: [UInt8],
        extraHashed: [[UInt8]] = [],
        date: Date,
        isRevoked: Bool = false,
        checkIdentifier: () throws -> Void
    ) throws -> RSAPublicKey {
        // Lengths first: the hash covers remainder and exponent, and a wrong length is the clearer error.
        try checkLengths(remainder: remainder, exponent: exponent)
        try frame.verifyHash(algorithm: hashAlgorithmIndicator, extra: [remainder, exponent] + extraHashed, name: name)
        try checkIdentifier()
        guard let expiration = CertificateExpiration(mmyy: expirationDate) else {
            throw ODAError(.expired, "\(name) expiration date is not a valid MMYY")
        }
        guard !expiration.isExpired(on: date) else { throw ODAError(.expired, "\(name) expired after \(expiration)") }
        guard !isRevoked else { throw ODAError(.revoked, "\(name) serial number is revoked") }
        guard publicKeyAlgorithmIndicator == SignedDataFrame.rsaIndicator else {
            throw ODAError(
                .unsupportedPublicKeyAlgorithm,
                "\(name) names public key algorithm \([publicKeyAlgorithmIndicator].hexString)"
            )
        }
        return try unverifiedPublicKey(remainder: remainder, exponent: exponent)
    }

    /// Key size, expiry and serial number; never the identifier.
    public var description: String {
        "\(name)(\(publicKeyLength * 8)-bit key, expires \(expiration?.description ?? "invalid"), "
            + "serial \(serialNumber.hexString))"
    }
}
