import Crypto

/// The layout every EMV RSA-signed block shares (EMV Book 2, Annex A2.1, digital signature scheme giving message
/// recovery): header '6A' | format | data | SHA-1 hash (20) | trailer 'BC', exactly as long as the signing modulus.
struct SignedDataFrame: Sendable {
    static let header: UInt8 = 0x6A
    static let trailer: UInt8 = 0xBC
    static let hashLength = 20
    /// Bytes the frame adds around its data: header, format, hash and trailer.
    static let overhead = 23
    /// Hash algorithm indicator '01': SHA-1, the only one EMV defines for RSA.
    static let sha1Indicator: UInt8 = 0x01
    /// Public key algorithm indicator '01': RSA.
    static let rsaIndicator: UInt8 = 0x01

    /// The recovered block, header to trailer.
    let recovered: [UInt8]

    /// Opens `signature` with `key` and checks length, trailer, header and format, in the order of EMV Book 2
    /// (5.3, 5.4, 6.4, 6.5.2 steps 1 to 4).
    init(recovering signature: some Collection<UInt8>, with key: RSAPublicKey, format: UInt8, name: String) throws {
        guard signature.count == key.modulusLength else {
            throw ODAError(.wrongLength, "\(name) is \(signature.count) bytes, its key's modulus \(key.modulusLength)")
        }
        let recovered = try key.recover(signature)
        // The modulus is at least 64 bytes, so every index below exists.
        guard recovered[recovered.count - 1] == Self.trailer else {
            throw ODAError(.badTrailer, "recovered \(name) does not end with BC")
        }
        guard recovered[0] == Self.header else {
            throw ODAError(.badHeader, "recovered \(name) does not start with 6A")
        }
        guard recovered[1] == format else {
            throw ODAError(
                .badFormat, "recovered \(name) has format \([recovered[1]].hexString), expected \([format].hexString)")
        }
        self.recovered = recovered
    }

    /// The bytes between format and hash.
    var data: ArraySlice<UInt8> { recovered[2..<(recovered.count - 1 - Self.hashLength)] }

    /// The hash result carried in the block.
    var hashResult: [UInt8] { Array(recovered[(recovered.count - 1 - Self.hashLength)..<(recovered.count - 1)]) }

    /// Checks the hash algorithm indicator is SHA-1, then that SHA-1(format | data | extra...) equals the carried
    /// hash.
    func verifyHash(algorithm: UInt8, extra: [[UInt8]], name: String) throws {
        guard algorithm == Self.sha1Indicator else {
            throw ODAError(.unsupportedHashAlgorithm, "\(name) names hash algorithm \([algorithm].hexString)")
        }
        guard Self.hash(recovered[1..<(recovered.count - 1 - Self.hashLength)], extra) == hashResult else {
            throw ODAError(.hashMismatch, "\(name) hash does not match the signed data")
        }
    }

    /// Builds and signs a block: `data` must be exactly `modulusLength - 23` bytes.
    static func sign(format: UInt8, data: [UInt8], extra: [[UInt8]], with key: RSAPrivateKey) throws -> [UInt8] {
        guard data.count + overhead == key.modulusLength else {
            throw ODAError(
                .invalidInput, "signed data is \(data.count) bytes, the key needs \(key.modulusLength - overhead)")
        }
        let hash = Self.hash([format] + data, extra)
        return try key.sign([header, format] + data + hash + [trailer])
    }

    /// The padding pattern EMV fills unused signature space with.
    static func padding(_ count: Int) -> [UInt8] { [UInt8](repeating: 0xBB, count: max(0, count)) }

    private static func hash(_ signed: some Collection<UInt8>, _ extra: [[UInt8]]) -> [UInt8] {
        var sha = Insecure.SHA1()
        sha.update(data: Array(signed))
        for part in extra { sha.update(data: part) }
        return Array(sha.finalize())
    }
}
