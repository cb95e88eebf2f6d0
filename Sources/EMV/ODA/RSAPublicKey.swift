import BigInt

/// An RSA public key as EMV uses it: a modulus of 512 to 1984 bits (a whole number of bytes, most significant
/// byte first) and an exponent of 3 or 2^16+1 (EMV Book 2, Annex A2.1 and 11.2).
///
/// Used for CA, issuer and ICC keys alike; ``recover(_:)`` is the "decipherment" of a certificate or signature.
public struct RSAPublicKey: Hashable, Sendable {
    /// The modulus, big-endian, without leading zero bytes.
    public let modulus: [UInt8]
    /// The public exponent, big-endian: `03` or `01 00 01`.
    public let exponent: [UInt8]

    let n: BigUInt
    let e: BigUInt

    /// Shortest modulus accepted: 512 bits.
    public static let minimumModulusLength = 64
    /// Longest modulus EMV allows: 1984 bits.
    public static let maximumModulusLength = 248

    /// Creates a key after checking it is usable for EMV RSA.
    ///
    /// - Throws: ``ODAError/invalidKey`` when the modulus is shorter than 64 or longer than 248 bytes, starts with
    ///   a zero byte or is even, or when the exponent is not 3 or 65537.
    public init(modulus: [UInt8], exponent: [UInt8]) throws {
        guard (Self.minimumModulusLength...Self.maximumModulusLength).contains(modulus.count) else {
            throw ODAError(.invalidKey, "modulus length \(modulus.count) outside 64...248 bytes")
        }
        guard modulus[0] != 0, modulus[modulus.count - 1] & 1 == 1 else {
            throw ODAError(.invalidKey, "modulus has a leading zero byte or is even")
        }
        guard exponent == [0x03] || exponent == [0x01, 0x00, 0x01] else {
            throw ODAError(.invalidKey, "exponent is not 3 or 65537")
        }
        self.modulus = modulus
        self.exponent = exponent
        self.n = BigUInt(bigEndian: modulus)
        self.e = BigUInt(bigEndian: exponent)
    }

    /// The modulus length in bytes (N_CA, N_I or N_IC in EMV Book 2).
    public var modulusLength: Int { modulus.count }

    /// Applies the public key to a signature or certificate: `signature^e mod n`, left-padded to the modulus length.
    ///
    /// - Throws: ``ODAError/wrongLength`` when the input is not exactly as long as the modulus,
    ///   ``ODAError/signatureOutOfRange`` when it is not less than the modulus.
    public func recover(_ signature: some Collection<UInt8>) throws -> [UInt8] {
        guard signature.count == modulusLength else {
            throw ODAError(.wrongLength, "signature is \(signature.count) bytes, modulus \(modulusLength)")
        }
        let s = BigUInt(bigEndian: signature)
        guard s < n else { throw ODAError(.signatureOutOfRange, "signature is not less than the modulus") }
        // The result is below n, so it always fits the modulus length.
        return s.emvPower(e, modulus: n).bigEndianBytes(length: modulusLength) ?? []
    }

    /// Compares modulus and exponent.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.modulus == rhs.modulus && lhs.exponent == rhs.exponent
    }

    /// Hashes modulus and exponent.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(modulus)
        hasher.combine(exponent)
    }
}
