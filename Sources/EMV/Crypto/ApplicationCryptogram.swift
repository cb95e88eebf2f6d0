/// Application cryptograms (ARQC, TC, AAC): the ISO/IEC 9797-1 algorithm 3 MAC of the transaction data under
/// the AC session key (EMV 4.3 Book 2, 8.1 and Annex A1.2).
///
/// The issuer recomputes the card's cryptogram from the same data with ``verify(_:sessionKey:data:padding:)``.
/// The cryptogram versions (``CryptogramVersion``, as pyemv's `VisaCVN18` and the others) choose the session key, the data and the padding.
public enum ApplicationCryptogram {
    /// How the cryptogram data is padded to whole 8-byte blocks (pyemv `ac.PaddingType`).
    public enum Padding: Sendable, Hashable, CaseIterable {
        /// ISO/IEC 9797-1 method 1, zero bytes: Visa's CVN 10 (pyemv `PaddingType.VISA`).
        case visa
        /// ISO/IEC 9797-1 method 2, 80 then zero bytes: EMV's default (pyemv `PaddingType.EMV`).
        case emv

        var iso9797: ISO9797.Padding {
            switch self {
            case .visa: .method1
            case .emv: .method2
            }
        }
    }

    /// Generates an application cryptogram (EMV 4.3 Book 2, 8.1.2 and A1.2.1).
    ///
    /// The MAC is single DES CBC under key A of the session key, with the last block decrypted under key B and
    /// encrypted again under key A. Same as pyemv `ac.generate_ac(sk_ac, data, padding_type, length)`,
    /// including its `length`, which slices the 8-byte MAC like Python's `mac[:length]`.
    /// - Parameters:
    ///   - sessionKey: The 16-byte AC session key.
    ///   - data: The concatenated data elements (CDOL1 data and what the card adds).
    ///   - padding: The padding of `data`; EMV when not given.
    ///   - length: How many leading bytes to keep: 4 to 8 in practice; above 8 keeps 8, and a negative value drops
    ///     that many bytes from the end, as a Python slice does.
    /// - Returns: The cryptogram.
    public static func generate(
        sessionKey: [UInt8],
        data: [UInt8],
        padding: Padding = .emv,
        length: Int = 8
    ) throws(CryptoError) -> [UInt8] {
        let block = macBlock(try DoubleLengthKey(sessionKey, name: "session key"), data: data, padding: padding)
        return BigEndianBlock.bytes(block, prefix: pythonPrefixLength(length, of: 8))
    }

    /// Checks an application cryptogram against the one computed from the same inputs (issuer side), comparing
    /// in constant time.
    /// - Parameters:
    ///   - cryptogram: The cryptogram received (4 to 8 bytes; shorter ones are compared with the MAC's prefix).
    ///   - sessionKey: The 16-byte AC session key.
    ///   - data: The data the card used.
    ///   - padding: The padding the card used.
    /// - Returns: Whether the cryptogram is the one the key and data give.
    public static func verify(
        _ cryptogram: [UInt8],
        sessionKey: [UInt8],
        data: [UInt8],
        padding: Padding = .emv
    ) throws(CryptoError) -> Bool {
        let key = try DoubleLengthKey(sessionKey, name: "session key")
        return constantTimeMatch(cryptogram, mac(key, data: data, padding: padding))
    }

    /// The 8-byte retail MAC of `data` under a double-length key.
    static func mac(_ key: DoubleLengthKey, data: [UInt8], padding: Padding) -> [UInt8] {
        BigEndianBlock.bytes(macBlock(key, data: data, padding: padding))
    }

    /// ``mac(_:data:padding:)`` as a block, for callers that need no array.
    static func macBlock(_ key: DoubleLengthKey, data: [UInt8], padding: Padding) -> UInt64 {
        ISO9797.algorithm3Block(key: key.schedule, data: data, padding: padding.iso9797)
    }

    /// How many bytes `bytes[:length]` keeps in Python of `count` bytes: negative lengths count from the end,
    /// long ones keep everything.
    private static func pythonPrefixLength(_ length: Int, of count: Int) -> Int {
        length < 0 ? max(0, count + length) : min(length, count)
    }

    /// Whether `received` equals the first bytes of `expected` (all of them when `exactLength`, else at least 4),
    /// looking at every byte whatever the earlier ones were, so timing does not tell how many leading bytes an
    /// attacker got right.
    static func constantTimeMatch(_ received: [UInt8], _ expected: [UInt8], exactLength: Bool = false) -> Bool {
        let shortest = exactLength ? expected.count : min(4, expected.count)
        guard received.count >= shortest, received.count <= expected.count else { return false }
        var difference: UInt8 = 0
        for index in received.indices {
            difference |= received[index] ^ expected[index]
        }
        return difference == 0
    }
}
