import Foundation

/// A certification authority for tests and for personalizing the card applet: a CA key pair under a RID and
/// index, issuing Issuer Public Key Certificates that terminals holding ``publicKey`` accept.
///
/// Never a real payment system CA: its private key lives in memory and in test vector files.
public struct TestCertificateAuthority: Sendable, Codable {
    /// The CA public key as a terminal lists it.
    public let publicKey: CAPublicKey
    /// The CA private key.
    public let privateKey: RSAPrivateKey

    /// Wraps an existing key pair under a RID and index.
    ///
    /// - Throws: ``ODAError/invalidKey`` when the RID is not 5 bytes.
    public init(rid: [UInt8], index: UInt8, privateKey: RSAPrivateKey, expiry: Date? = nil) throws {
        self.publicKey = try CAPublicKey(rid: rid, index: index, key: privateKey.publicKey, expiry: expiry)
        self.privateKey = privateKey
    }

    /// Generates a new CA key (EMV CA keys are 1024 to 1984 bits).
    public static func generate(
        rid: [UInt8],
        index: UInt8,
        modulusLength: Int = 248,
        exponent: [UInt8] = [0x03],
        using generator: inout some RandomNumberGenerator
    ) throws -> TestCertificateAuthority {
        let key = try RSAPrivateKey.generate(modulusLength: modulusLength, exponent: exponent, using: &generator)
        return try TestCertificateAuthority(rid: rid, index: index, privateKey: key)
    }

    /// Issues an Issuer Public Key Certificate (EMV Book 2, table 6), splitting off a remainder when the issuer
    /// modulus is longer than N_CA - 36 bytes.
    ///
    /// - Parameters:
    ///   - issuerKey: the key to certify; not longer than the CA key.
    ///   - issuerIdentifier: the leftmost 3 to 8 PAN digits as `cn` padded with 'F' (4 bytes).
    ///   - expiration: the last month the certificate is valid.
    ///   - serialNumber: 3 bytes, unique per certificate under this CA key.
    /// - Throws: ``ODAError/invalidInput`` or ``ODAError/keyTooLong`` for unusable arguments.
    public func issueIssuerCertificate(
        for issuerKey: RSAPublicKey,
        issuerIdentifier: [UInt8],
        expiration: CertificateExpiration,
        serialNumber: [UInt8]
    ) throws -> IssuedCertificate {
        guard issuerIdentifier.count == 4, let digits = try? BCD.compressedNumericDigits(issuerIdentifier),
            (3...8).contains(digits.count)
        else {
            throw ODAError(.invalidInput, "issuer identifier must be 3 to 8 digits padded with F in 4 bytes")
        }
        let fields = RSAPrivateKey.CertificateFields(
            identifier: issuerIdentifier,
            expiration: expiration,
            serialNumber: serialNumber
        )
        return try privateKey.certify(issuerKey, format: IssuerPublicKeyCertificate.format, fields: fields)
    }

    private enum CodingKeys: String, CodingKey {
        case rid, index, privateKey
    }

    /// Decodes `{"rid": hex, "index": hex, "privateKey": {...}}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let rid = try container.decode(String.self, forKey: .rid)
        let index = try container.decode(String.self, forKey: .index)
        guard let ridBytes = [UInt8](hex: rid), let indexBytes = [UInt8](hex: index), indexBytes.count == 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .rid, in: container, debugDescription: "RID or index not hex")
        }
        try self.init(
            rid: ridBytes,
            index: indexBytes[0],
            privateKey: container.decode(RSAPrivateKey.self, forKey: .privateKey)
        )
    }

    /// Encodes RID and index as hex and the private key as ``RSAPrivateKey`` does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(publicKey.rid.hexString, forKey: .rid)
        try container.encode([publicKey.index].hexString, forKey: .index)
        try container.encode(privateKey, forKey: .privateKey)
    }
}
