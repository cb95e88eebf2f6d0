import Crypto

// INTERIM: the KDF belongs to Decryption/ (helper ap-verify); this file goes once theirs lands, so there is one.
enum PaymentTokenKDF {
    /// NIST SP 800-56A concatenation KDF with SHA-256, one round: SHA-256(counter 1 ‖ Z ‖ otherInfo), where
    /// otherInfo = 0x0D ‖ "id-aes256-GCM" ‖ "Apple" ‖ SHA-256(merchant identifier).
    static func ecV1Key(sharedSecret: [UInt8], merchantIdentifierHash: [UInt8]) -> SymmetricKey {
        var hasher = SHA256()
        hasher.update(data: [0, 0, 0, 1] + sharedSecret + [0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8))
        hasher.update(data: merchantIdentifierHash)
        return SymmetricKey(data: hasher.finalize())
    }
}
