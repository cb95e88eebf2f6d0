import Crypto
import _CryptoExtras

/// ISO/IEC 9797-1 MACs: algorithm 1 (CBC-MAC) and algorithm 3 (the retail MAC EMV uses for cryptograms
/// and secure messaging), with padding methods 1, 2 and 3.
///
/// Results match pyemv 1.5.0 `mac.mac_iso9797_3` and psec 1.3.0 `mac.generate_cbc_mac` /
/// `mac.generate_retail_mac`, including their padding of empty data.
public enum ISO9797 {
    /// How data is padded to whole blocks before the MAC is computed.
    public enum Padding: Sendable, Hashable, CaseIterable {
        /// Zero bytes up to the next block boundary; nothing when the data already ends on one, except that
        /// empty data becomes one zero block (as in pyemv and psec).
        case method1
        /// A mandatory 0x80 byte, then zero bytes up to the next block boundary (as ISO/IEC 7816-4; EMV).
        case method2
        /// A block with the data's length in bits (big-endian), then the data padded by method 1.
        case method3
    }

    /// The MAC algorithm.
    public enum Algorithm: Sendable, Hashable, CaseIterable {
        /// CBC-MAC with the whole key (TDES, or single DES for an 8-byte key); psec `generate_cbc_mac`.
        case algorithm1
        /// Retail MAC with a double length key K1 K2: single DES CBC under K1, then the last block decrypted
        /// under K2 and encrypted under K1.
        case algorithm3
    }

    /// `data` padded to a multiple of `blockSize` bytes (psec `mac.pad_iso_1/2/3`).
    ///
    /// `blockSize` is 8 for DES and 16 for AES; values outside 1...256 are clamped to that range.
    public static func pad(_ data: [UInt8], _ padding: Padding, blockSize: Int = 8) -> [UInt8] {
        let blockSize = min(max(1, blockSize), 256)
        let lengthBlock = padding == .method3 ? blockSize : 0
        let body = padding == .method2 ? data.count + 1 : data.count
        // Zeros up to the next block boundary; empty data becomes one zero block, as in pyemv and psec.
        let remainder = body % blockSize
        let padded = body == 0 || remainder > 0 ? body + blockSize - remainder : body
        // One allocation, written in place (concatenating arrays made two or three per call).
        return [UInt8](unsafeUninitializedCapacity: lengthBlock + padded) { buffer, count in
            buffer.initialize(repeating: 0)
            if padding == .method3 {
                // The data's length in bits, big-endian, in the last (up to) 8 bytes of the first block.
                let bits = UInt64(data.count) &* 8
                for i in max(0, blockSize - 8)..<blockSize {
                    buffer[i] = UInt8(truncatingIfNeeded: bits >> (8 * (blockSize - 1 - i)))
                }
            }
            _ = UnsafeMutableBufferPointer(rebasing: buffer[lengthBlock...]).update(fromContentsOf: data)
            if padding == .method2 { buffer[lengthBlock + data.count] = 0x80 }
            count = lengthBlock + padded
        }
    }

    /// The MAC of `data` under `key`, truncated to its first `length` bytes.
    ///
    /// - Throws: ``CryptoError/Code/invalidMACLength`` unless `length` is in 1...8;
    ///   ``CryptoError/Code/invalidKeyLength`` for algorithm 3 with a key that is not double length.
    public static func mac(
        algorithm: Algorithm, key: TDESKey, data: [UInt8], padding: Padding, length: Int = 8
    ) throws(CryptoError) -> [UInt8] {
        try checkLength(length, blockSize: 8)
        switch algorithm {
        case .algorithm1:
            return truncate(cbcMAC(key: key, data: data, padding: padding), length)
        case .algorithm3:
            guard key.keyLength == 16 else {
                throw CryptoError(.invalidKeyLength, "MAC algorithm 3 takes a 16-byte key, not \(key.keyLength)")
            }
            return truncate(algorithm3Block(key: key, data: data, padding: padding), length)
        }
    }

    /// The whole 8-byte retail MAC (algorithm 3) as a block; `key` is double length.
    static func algorithm3Block(key: TDESKey, data: [UInt8], padding: Padding) -> UInt64 {
        key.withCipher { cipher in
            var (l, r) = permutedChain(cipher, data: data, padding: padding) { l, r in
                cipher.desEncryptPermuted(&l, &r, cipher.k1)
            }
            cipher.desDecryptPermuted(&l, &r, cipher.k2)
            cipher.desEncryptPermuted(&l, &r, cipher.k1)
            return cipher.permutedOut(l, r)
        }
    }

    /// The retail MAC with two separate keys (pyemv `mac_iso9797_3`, psec `generate_retail_mac`): CBC under
    /// `key1`, then the last block decrypted under `key2` and encrypted under `key1`.
    ///
    /// With 8-byte keys this is ``Algorithm/algorithm3`` for the key `key1 ‖ key2`; longer keys are used as
    /// TDES keys throughout, as the Python functions do.
    /// - Throws: ``CryptoError/Code/invalidMACLength`` unless `length` is in 1...8.
    public static func retailMAC(
        key1: TDESKey, key2: TDESKey, data: [UInt8], padding: Padding, length: Int = 8
    ) throws(CryptoError) -> [UInt8] {
        try checkLength(length, blockSize: 8)
        let chain = cbcMAC(key: key1, data: data, padding: padding)
        return truncate(key1.encrypt(block: key2.decrypt(block: chain)), length)
    }

    /// AES CBC-MAC (algorithm 1 with AES, psec `generate_cbc_mac(..., algorithm=Algorithm.AES)`).
    ///
    /// - Throws: ``CryptoError/Code/invalidKeyLength`` unless the key has 16, 24 or 32 bytes;
    ///   ``CryptoError/Code/invalidMACLength`` unless `length` is in 1...16.
    public static func aesCBCMAC(
        key: [UInt8], data: [UInt8], padding: Padding, length: Int = 16
    ) throws(CryptoError) -> [UInt8] {
        try checkLength(length, blockSize: 16)
        let symmetricKey = try AESBlock.key(key)
        let padded = pad(data, padding, blockSize: 16)
        var chain = [UInt8](repeating: 0, count: 16)
        var offset = 0
        while offset < padded.count {
            for i in 0..<16 { chain[i] ^= padded[offset + i] }
            try AESBlock.encrypt(&chain, key: symmetricKey)
            offset += 16
        }
        return Array(chain.prefix(length))
    }

    /// The last CBC block (zero IV) over the padded data, under the whole key.
    static func cbcMAC(key: TDESKey, data: [UInt8], padding: Padding) -> UInt64 {
        key.withCipher { cipher in
            let (l, r) = permutedChain(cipher, data: data, padding: padding) { l, r in cipher.encryptPermuted(&l, &r) }
            return cipher.permutedOut(l, r)
        }
    }

    /// The CBC chain (zero IV) over the padded data with `encrypt` as the block cipher, left in IP's domain (see
    /// `RawCipher.permutedIn`: IP(0) = 0, and each data block is permuted off the chain's critical path).
    @inline(__always)
    private static func permutedChain(
        _ cipher: TDESKey.RawCipher, data: [UInt8], padding: Padding,
        _ encrypt: (inout UInt32, inout UInt32) -> Void
    ) -> (UInt32, UInt32) {
        var l: UInt32 = 0
        var r: UInt32 = 0
        forEachBlock(of: data, padding: padding) { block in
            let (bl, br) = cipher.permutedIn(block)
            l ^= bl
            r ^= br
            encrypt(&l, &r)
        }
        return (l, r)
    }

    /// Calls `body` with each 8-byte block of the padded data, without building the padded copy.
    @inline(__always)
    static func forEachBlock(of data: [UInt8], padding: Padding, _ body: (UInt64) -> Void) {
        if padding == .method3 {
            body(UInt64(data.count) &* 8)
        }
        data.withUnsafeBytes { raw in
            let whole = raw.count & ~7
            var offset = 0
            while offset < whole {
                body(BigEndianBlock.load(raw, at: offset))
                offset += 8
            }
            let rest = raw.count - whole
            var last: UInt64 = 0
            if padding == .method2 {
                last = 0x80 << (56 - 8 * rest)
            } else if rest == 0 && !raw.isEmpty {
                return
            }
            for i in 0..<rest {
                last |= UInt64(raw[whole + i]) << (56 - 8 * i)
            }
            body(last)
        }
    }

    private static func checkLength(_ length: Int, blockSize: Int) throws(CryptoError) {
        guard (1...blockSize).contains(length) else {
            throw CryptoError(.invalidMACLength, "a MAC length is 1...\(blockSize) bytes, not \(length)")
        }
    }

    private static func truncate(_ block: UInt64, _ length: Int) -> [UInt8] {
        BigEndianBlock.bytes(block, prefix: length)
    }
}
