/// ECB and CBC over byte strings, with the length rules of psec.des (data: whole blocks, at least one).
extension TDESKey {
    /// Encrypts `data` block by block (ECB); `data` must be a non-empty multiple of 8 bytes.
    public func encryptECB(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try transform(data, iv: nil, pairs: { cipher, first, second, _ in cipher.encrypt(first, second) }) {
            cipher, block, _ in cipher.encrypt(block)
        }
    }

    /// Decrypts `data` block by block (ECB); `data` must be a non-empty multiple of 8 bytes.
    public func decryptECB(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try transform(data, iv: nil, pairs: { cipher, first, second, _ in cipher.decrypt(first, second) }) {
            cipher, block, _ in cipher.decrypt(block)
        }
    }

    /// Encrypts `data` in CBC mode with an 8-byte `iv`; `data` must be a non-empty multiple of 8 bytes.
    public func encryptCBC(_ data: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try transform(data, iv: iv) { cipher, block, chain in
            chain = cipher.encrypt(block ^ chain)
            return chain
        }
    }

    /// Decrypts `data` in CBC mode with an 8-byte `iv`; `data` must be a non-empty multiple of 8 bytes.
    public func decryptCBC(_ data: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        let pairs: PairStep = { cipher, first, second, chain in
            let (plainFirst, plainSecond) = cipher.decrypt(first, second)
            let plain = (plainFirst ^ chain, plainSecond ^ first)
            chain = second
            return plain
        }
        return try transform(data, iv: iv, pairs: pairs) { cipher, block, chain in
            let plain = cipher.decrypt(block) ^ chain
            chain = block
            return plain
        }
    }

    /// A step over two blocks at once, for modes whose blocks are independent (ECB, CBC decryption): their
    /// rounds then run side by side (see ``DESEngine/rounds2``).
    private typealias PairStep = (RawCipher, UInt64, UInt64, inout UInt64) -> (UInt64, UInt64)

    /// Applies `step` to each block, or `pairs` to each pair of blocks and `step` to a last odd one, with a
    /// chaining value that starts as the IV (0 without one).
    @inline(__always)
    private func transform(
        _ data: [UInt8], iv: [UInt8]?, pairs: PairStep? = nil, _ step: (RawCipher, UInt64, inout UInt64) -> UInt64
    ) throws(CryptoError) -> [UInt8] {
        guard !data.isEmpty, data.count % 8 == 0 else {
            throw CryptoError(.invalidDataLength, "data must be a non-empty multiple of 8 bytes, not \(data.count)")
        }
        var chain: UInt64 = 0
        if let iv {
            guard iv.count == 8 else {
                throw CryptoError(.invalidIVLength, "the IV must have 8 bytes, not \(iv.count)")
            }
            chain = BigEndianBlock.load(iv)
        }
        return withCipher { cipher in
            [UInt8](unsafeUninitializedCapacity: data.count) { output, count in
                let output = UnsafeMutableRawBufferPointer(output)
                data.withUnsafeBytes { input in
                    var offset = 0
                    if let pairs {
                        while offset + 16 <= input.count {
                            let first = BigEndianBlock.load(input, at: offset)
                            let second = BigEndianBlock.load(input, at: offset + 8)
                            let (firstOut, secondOut) = pairs(cipher, first, second, &chain)
                            BigEndianBlock.store(firstOut, into: output, at: offset)
                            BigEndianBlock.store(secondOut, into: output, at: offset + 8)
                            offset += 16
                        }
                    }
                    while offset < input.count {
                        let block = BigEndianBlock.load(input, at: offset)
                        BigEndianBlock.store(step(cipher, block, &chain), into: output, at: offset)
                        offset += 8
                    }
                }
                count = data.count
            }
        }
    }
}
