/// Authorisation response cryptograms: the issuer's answer to an ARQC, which the card checks before it accepts
/// the response (EMV 4.3 Book 2, 8.2).
///
/// Both methods match pyemv 1.5.0 (`ac.generate_arpc_1`, `ac.generate_arpc_2`) argument for argument,
/// including the order in which they check lengths. The `verify` functions are the card's side: recompute and
/// compare in constant time.
public enum ARPC {
    /// ARPC method 1 (EMV 4.3 Book 2, 8.2.1): ARPC = TDES(SK)[ARQC ⊕ (ARC ‖ 00 00 00 00 00 00)], 8 bytes.
    ///
    /// The card receives ARPC ‖ ARC in tag 91. Same as pyemv `ac.generate_arpc_1(sk_ac, arqc, arpc_rc)`.
    /// - Parameters:
    ///   - sessionKey: The 16-byte key (the AC session key, or the ICC master key where the CVN says so).
    ///   - arqc: The 8-byte ARQC (tag 9F26).
    ///   - responseCode: The 2-byte authorisation response code.
    /// - Returns: The 8-byte ARPC.
    public static func method1(
        sessionKey: [UInt8],
        arqc: [UInt8],
        responseCode: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let key = try DoubleLengthKey(sessionKey, name: "session key")
        return BigEndianBlock.bytes(try method1Block(key, arqc: arqc, responseCode: responseCode))
    }

    /// ARPC method 2 (EMV 4.3 Book 2, 8.2.2): the first 4 bytes of the ISO/IEC 9797-1 algorithm 3 MAC, padding
    /// method 2, of ARQC ‖ CSU ‖ proprietary authentication data.
    ///
    /// The card receives ARPC ‖ CSU ‖ proprietary data in tag 91. Same as pyemv
    /// `ac.generate_arpc_2(sk_ac, arqc, csu, prop_auth_data)`.
    /// - Parameters:
    ///   - sessionKey: The 16-byte AC session key.
    ///   - arqc: The 8-byte ARQC (tag 9F26).
    ///   - cardStatusUpdate: The 4-byte card status update.
    ///   - proprietaryAuthenticationData: Up to 8 bytes; none when nil.
    /// - Returns: The 4-byte ARPC.
    public static func method2(
        sessionKey: [UInt8],
        arqc: [UInt8],
        cardStatusUpdate: [UInt8],
        proprietaryAuthenticationData: [UInt8]? = nil
    ) throws(CryptoError) -> [UInt8] {
        let block = try method2Block(
            DoubleLengthKey(sessionKey, name: "session key"),
            arqc: arqc,
            cardStatusUpdate: cardStatusUpdate,
            proprietaryAuthenticationData: proprietaryAuthenticationData
        )
        return BigEndianBlock.bytes(block, prefix: 4)
    }

    /// Checks an ARPC of method 1 (card side), comparing in constant time.
    public static func verifyMethod1(
        _ arpc: [UInt8],
        sessionKey: [UInt8],
        arqc: [UInt8],
        responseCode: [UInt8]
    ) throws(CryptoError) -> Bool {
        let expected = try method1(sessionKey: sessionKey, arqc: arqc, responseCode: responseCode)
        return ApplicationCryptogram.constantTimeMatch(arpc, expected, exactLength: true)
    }

    /// Checks an ARPC of method 2 (card side), comparing in constant time.
    public static func verifyMethod2(
        _ arpc: [UInt8],
        sessionKey: [UInt8],
        arqc: [UInt8],
        cardStatusUpdate: [UInt8],
        proprietaryAuthenticationData: [UInt8]? = nil
    ) throws(CryptoError) -> Bool {
        let expected = try method2(
            sessionKey: sessionKey,
            arqc: arqc,
            cardStatusUpdate: cardStatusUpdate,
            proprietaryAuthenticationData: proprietaryAuthenticationData
        )
        return ApplicationCryptogram.constantTimeMatch(arpc, expected, exactLength: true)
    }

    /// Method 1 under a key already split into halves, as the 8-byte block.
    static func method1Block(_ key: DoubleLengthKey, arqc: [UInt8], responseCode: [UInt8]) throws(CryptoError) -> UInt64
    {
        try CryptoError.checkLength(arqc, 8, "ARQC")
        try CryptoError.checkLength(responseCode, 2, "ARPC response code")
        let padded = UInt64(responseCode[0]) << 56 | UInt64(responseCode[1]) << 48
        return key.schedule.encrypt(block: BigEndianBlock.load(arqc) ^ padded)
    }

    /// Method 2 under a key already split into halves: the MAC whose first 4 bytes are the ARPC.
    static func method2Block(
        _ key: DoubleLengthKey,
        arqc: [UInt8],
        cardStatusUpdate csu: [UInt8],
        proprietaryAuthenticationData: [UInt8]?
    ) throws(CryptoError) -> UInt64 {
        try CryptoError.checkLength(arqc, 8, "ARQC")
        try CryptoError.checkLength(csu, 4, "card status update")
        let proprietary = proprietaryAuthenticationData ?? []
        guard proprietary.count <= 8 else {
            throw CryptoError(
                .invalidFieldLength,
                "proprietary authentication data must be 0 to 8 bytes, got \(proprietary.count)"
            )
        }
        // ARQC ‖ CSU ‖ proprietary data in one allocation (concatenating made two).
        var data: [UInt8] = []
        data.reserveCapacity(arqc.count + csu.count + proprietary.count)
        data += arqc
        data += csu
        data += proprietary
        return ApplicationCryptogram.macBlock(key, data: data, padding: .emv)
    }
}
