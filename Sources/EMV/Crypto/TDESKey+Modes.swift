/// ECB and CBC over byte strings, with the length rules of psec.des (data: whole blocks, at least one).
extension TDESKey {
    /// Encrypts `data` block by block (ECB); `data` must be a non-empty multiple of 8 bytes.
    public func encryptECB(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try transform(data, iv: nil) { cipher, block, _ in cipher.encrypt(block) }
    }

    /// Decrypts `data` block by block (ECB); `data` must be a non-empty multiple of 8 bytes.
    public func decryptECB(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try transform(data, iv: nil) { cipher, block, _ in cipher.decrypt(block) }
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
        try transform(data, iv: iv) { cipher, block, chain in
            let plain = cipher.decrypt(block) ^ chain
            chain = block
            return plain
        }
    }

    /// Applies `step` to each block with a chaining value that starts as the IV (0 without one).
    @inline(__always)
    private func transform(
        _ data: [UInt8], iv: [UInt8]?, _ step: (RawCipher, UInt64, inout UInt64) -> UInt64
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
