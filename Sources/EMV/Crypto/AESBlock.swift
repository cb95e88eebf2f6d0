import Crypto
import _CryptoExtras

/// Single AES block operations (the "ECB of one block" that ISO 9564 format 4 and AES CBC-MAC are made of),
/// over swift-crypto's AES block function, with key sizes checked up front so only typed errors escape.
enum AESBlock {
    /// `bytes` as an AES key.
    ///
    /// - Throws: ``CryptoError/Code/invalidKeyLength`` unless it has 16, 24 or 32 bytes.
    static func key(_ bytes: [UInt8]) throws(CryptoError) -> SymmetricKey {
        guard bytes.count == 16 || bytes.count == 24 || bytes.count == 32 else {
            throw CryptoError(.invalidKeyLength, "an AES key has 16, 24 or 32 bytes, not \(bytes.count)")
        }
        return SymmetricKey(data: bytes)
    }

    /// Encrypts the 16 bytes of `block` in place.
    static func encrypt(_ block: inout [UInt8], key: SymmetricKey) throws(CryptoError) {
        do {
            try AES.permute(&block, key: key)
        } catch {
            throw CryptoError(.invalidDataLength, "an AES block has 16 bytes, not \(block.count)")
        }
    }

    /// Decrypts the 16 bytes of `block` in place.
    static func decrypt(_ block: inout [UInt8], key: SymmetricKey) throws(CryptoError) {
        do {
            try AES.inversePermute(&block, key: key)
        } catch {
            throw CryptoError(.invalidDataLength, "an AES block has 16 bytes, not \(block.count)")
        }
    }
}
