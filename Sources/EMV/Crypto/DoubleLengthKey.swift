/// A double-length (16-byte) DES key as its two 8-byte halves, for derivations that work block by block.
struct DoubleLengthKey: Sendable, Hashable {
    /// Key A: the first 8 bytes.
    var left: UInt64
    /// Key B: the last 8 bytes.
    var right: UInt64

    init(left: UInt64, right: UInt64) {
        self.left = left
        self.right = right
    }

    /// The halves of a 16-byte key.
    ///
    /// Read through the array's buffer and named by a `StaticString`: slices and a `String` name cost a retain
    /// and release each, and every cryptogram makes several of these keys.
    /// - Throws: ``CryptoError/invalidKeyLength`` when `bytes` is not 16 bytes long.
    init(_ bytes: [UInt8], name: StaticString) throws(CryptoError) {
        guard bytes.count == 16 else {
            throw CryptoError(
                .invalidKeyLength, "\(name) must be a double-length DES key of 16 bytes, got \(bytes.count)")
        }
        (left, right) = bytes.withUnsafeBytes { (BigEndianBlock.load($0, at: 0), BigEndianBlock.load($0, at: 8)) }
    }

    /// The TDES key (K1 K2 K1) with its schedules.
    var schedule: TDESKey { TDESKey(k1: left, k2: right) }

    /// The 16 key bytes.
    var bytes: [UInt8] { BigEndianBlock.bytes(left, right) }

    /// The key with each byte's low bit set so that the byte has an odd number of one bits.
    var withOddParity: DoubleLengthKey {
        DoubleLengthKey(left: Self.oddParity(left), right: Self.oddParity(right))
    }

    /// Odd parity for the 8 bytes of a block at once.
    static func oddParity(_ block: UInt64) -> UInt64 {
        var fold = block ^ block >> 4
        fold ^= fold >> 2
        fold ^= fold >> 1
        // Bit 0 of each byte of `fold` is now the XOR of that byte's bits; flip the low bit where it is even.
        return block ^ (~fold & 0x0101_0101_0101_0101)
    }
}
