/// The recovered contents of Signed Static Application Data (tag 93), opened with the issuer public key: static
/// data authentication, SDA (EMV Book 2, 5.4 and table 7).
public struct SignedStaticApplicationData: Sendable {
    /// Signed data format '03'.
    public static let format: UInt8 = 0x03

    let frame: SignedDataFrame

    /// Opens the signature with the issuer public key and checks length, trailer, header and format.
    ///
    /// - Throws: ``ODAError/wrongLength``, ``ODAError/signatureOutOfRange``, ``ODAError/badTrailer``,
    ///   ``ODAError/badHeader``, ``ODAError/badFormat``.
    public init(recovering signature: some Collection<UInt8>, with issuerKey: RSAPublicKey) throws {
        frame = try SignedDataFrame(
            recovering: signature,
            with: issuerKey,
            format: Self.format,
            name: "signed static application data"
        )
    }

    /// The hash algorithm indicator ('01' SHA-1).
    public var hashAlgorithmIndicator: UInt8 { frame.data[frame.data.startIndex] }
    /// The Data Authentication Code the issuer chose (2 bytes); the terminal stores it in tag 9F45.
    public var dataAuthenticationCode: [UInt8] { Array(frame.data.dropFirst().prefix(2)) }
    /// The hash result carried in the signature.
    public var hashResult: [UInt8] { frame.hashResult }

    /// Runs EMV Book 2, 5.4 steps 5 to 7: the hash over the recovered data and the static data to be authenticated.
    ///
    /// - Throws: ``ODAError/unsupportedHashAlgorithm``, ``ODAError/hashMismatch``.
    public func verify(staticData: [UInt8]) throws {
        try frame.verifyHash(
            algorithm: hashAlgorithmIndicator,
            extra: [staticData],
            name: "signed static application data"
        )
    }
}
