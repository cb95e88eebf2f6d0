import BigInt

/// An RSA private key for the signing side of offline data authentication: a test CA, an issuer, a card.
///
/// Private operations use the Chinese remainder theorem (two half-size exponentiations). The key encodes to JSON
/// with PKCS #1 field names, every number as upper-case hex, so test keys can ship as vector files.
/// Its `description` never shows the private parts.
public struct RSAPrivateKey: Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The matching public key.
    public let publicKey: RSAPublicKey

    let p: BigUInt
    let q: BigUInt
    let d: BigUInt
    let dP: BigUInt
    let dQ: BigUInt
    let qInv: BigUInt
    /// The same key inside BoringSSL, which does the private operation far faster; nil for keys it refuses.
    let boringSSL: BoringSSLRawRSAKey?

    /// Builds the key from its two primes and the public exponent, deriving the private exponent and CRT values.
    ///
    /// - Throws: ``ODAError/invalidKey`` when the primes do not make an EMV key with this exponent (modulus size,
    ///   exponent not invertible, equal primes).
    public init(prime1: [UInt8], prime2: [UInt8], exponent: [UInt8]) throws {
        try self.init(p: BigUInt(bigEndian: prime1), q: BigUInt(bigEndian: prime2), exponent: exponent)
    }

    init(p: BigUInt, q: BigUInt, exponent: [UInt8]) throws {
        guard p > 2, q > 2, p != q else { throw ODAError(.invalidKey, "primes must be distinct and odd") }
        let n = p * q
        // The modulus comes from the primes, so its bytes are known to be minimal.
        guard let modulus = n.bigEndianBytes(length: (n.bitWidth + 7) / 8) else {
            throw ODAError(.invalidKey, "modulus does not serialize")
        }
        let publicKey = try RSAPublicKey(modulus: modulus, exponent: exponent)
        let phi = (p - 1) * (q - 1)
        guard let d = publicKey.e.inverse(phi), let qInv = q.inverse(p) else {
            throw ODAError(.invalidKey, "exponent is not invertible for these primes")
        }
        self.publicKey = publicKey
        self.p = p
        self.q = q
        self.d = d
        let dP = d % (p - 1)
        let dQ = d % (q - 1)
        self.dP = dP
        self.dQ = dQ
        self.qInv = qInv
        self.boringSSL = Self.boringSSLKey(n: n, e: publicKey.e, d: d, p: p, q: q, dP: dP, dQ: dQ, qInv: qInv)
    }

    /// The modulus length in bytes.
    public var modulusLength: Int { publicKey.modulusLength }

    /// Applies the private key to a message of exactly the modulus length whose value is below the modulus:
    /// the raw RSA signature EMV certificates and signatures use (the message carries its own '6A'..'BC' framing).
    ///
    /// The result is checked with the public key before it is returned, so a fault never leaks a bad signature.
    ///
    /// - Throws: ``ODAError/wrongLength`` or ``ODAError/signatureOutOfRange`` for an unusable message.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        guard message.count == modulusLength else {
            throw ODAError(.wrongLength, "message is \(message.count) bytes, modulus \(modulusLength)")
        }
        guard BigUInt(bigEndian: message) < publicKey.n else { throw ODAError(.signatureOutOfRange, "message is not less than the modulus") }
        let signature = try boringSSL.map { try Self.boringSSLSign(message, with: $0) } ?? bigIntSignature(message)
        guard try publicKey.recover(signature) == message else {
            throw ODAError(.invalidKey, "private operation did not verify")
        }
        return signature
    }

    /// The private operation in BigInt arithmetic with the CRT: for keys BoringSSL refuses, and as its cross-check.
    func bigIntSignature(_ message: [UInt8]) throws -> [UInt8] {
        let m = BigUInt(bigEndian: message)
        let m1 = m.emvPower(dP, modulus: p)
        let m2 = m.emvPower(dQ, modulus: q)
        let h = (qInv * ((m1 + p - m2 % p) % p)) % p
        let s = m2 + h * q
        guard let signature = s.bigEndianBytes(length: modulusLength) else {
            throw ODAError(.invalidKey, "private operation overflowed the modulus")
        }
        return signature
    }

    /// The key size, never its parts.
    public var description: String {
        "RSAPrivateKey(\(modulusLength * 8) bits, e=\(publicKey.e), private parts redacted)"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    private enum CodingKeys: String, CodingKey {
        case modulus, publicExponent, privateExponent, prime1, prime2, exponent1, exponent2, coefficient
    }

    /// Decodes a key from hex fields and checks that they agree with each other.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func bytes(_ key: CodingKeys) throws -> [UInt8] {
            let text = try container.decode(String.self, forKey: key)
            guard let value = [UInt8](hex: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not hex")
            }
            return value
        }
        try self.init(prime1: bytes(.prime1), prime2: bytes(.prime2), exponent: bytes(.publicExponent))
        let recorded: [(CodingKeys, BigUInt)] = [
            (.modulus, publicKey.n), (.privateExponent, d), (.exponent1, dP), (.exponent2, dQ), (.coefficient, qInv),
        ]
        for (key, value) in recorded where container.contains(key) {
            guard BigUInt(bigEndian: try bytes(key)) == value else {
                throw ODAError(.invalidKey, "\(key.stringValue) does not match the primes")
            }
        }
    }

    /// Encodes every part as upper-case hex.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func hex(_ value: BigUInt) -> String {
            (value.bigEndianBytes(length: (value.bitWidth + 7) / 8) ?? []).hexString
        }
        try container.encode(publicKey.modulus.hexString, forKey: .modulus)
        try container.encode(publicKey.exponent.hexString, forKey: .publicExponent)
        try container.encode(hex(d), forKey: .privateExponent)
        try container.encode(hex(p), forKey: .prime1)
        try container.encode(hex(q), forKey: .prime2)
        try container.encode(hex(dP), forKey: .exponent1)
        try container.encode(hex(dQ), forKey: .exponent2)
        try container.encode(hex(qInv), forKey: .coefficient)
    }
}
