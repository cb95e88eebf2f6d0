import Crypto
import Foundation

/// A PSP private key ready to open sealed card data: HPKE base mode (RFC 9180) for the one ciphersuite readers seal
/// with (``CardDataSealer/ciphersuite``: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM), one message per
/// encapsulated key.
///
/// swift-crypto's general `HPKE.Recipient` spent ~20 µs beyond the P-256 key agreement on every open (53 µs against
/// 31.5 µs for the agreement alone, on the 2-core VM): here what does not change from message to message — the
/// recipient's serialized public key, the suite ids, the hashes of the info and of the empty PSK id — is computed
/// once per key, and an open is the key agreement, five HMAC-SHA256 and one AES-GCM open. Readers still seal with
/// swift-crypto's `HPKE.Sender`, and tests open its messages with both.
package struct CardDataRecipientKey: Sendable, CustomStringConvertible, CustomReflectable {
    let privateKey: P256.KeyAgreement.PrivateKey
    /// pkRm: the recipient's public key as an uncompressed point.
    private let recipientPublicKey: [UInt8]
    /// mode (base) ‖ psk_id_hash ‖ info_hash.
    private let keyScheduleContext: [UInt8]

    private static let kemSuite = Array("KEM".utf8) + [0x00, 0x10]
    private static let hpkeSuite = Array("HPKE".utf8) + [0x00, 0x10, 0x00, 0x01, 0x00, 0x02]
    private static let version = Array("HPKE-v1".utf8)
    /// HKDF-Extract's salt when none is given: HashLen zeros.
    private static let noSalt = [UInt8](repeating: 0, count: 32)
    private static let tagLength = 16

    package init(_ privateKey: P256.KeyAgreement.PrivateKey, info: [UInt8]) {
        self.privateKey = privateKey
        recipientPublicKey = Array(privateKey.publicKey.x963Representation)
        let pskIDHash = Self.labeledExtract(salt: Self.noSalt, "psk_id_hash", [], suite: Self.hpkeSuite)
        let infoHash = Self.labeledExtract(salt: Self.noSalt, "info_hash", info, suite: Self.hpkeSuite)
        keyScheduleContext = [0x00] + pskIDHash + infoHash
    }

    /// The plaintext of `ciphertext` (with its 16-byte tag) sealed to this key under `encapsulatedKey`, with
    /// `authenticatedData`; throws when anything does not open.
    package func open(
        _ ciphertext: Data, encapsulatedKey: Data, authenticating authenticatedData: Data
    ) throws -> Data {
        guard ciphertext.count >= Self.tagLength else { throw CryptoKitError.incorrectParameterSize }
        let ephemeral = try P256.KeyAgreement.PublicKey(x963Representation: encapsulatedKey)
        let dh = try privateKey.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
        // DHKEM: shared_secret = LabeledExpand(LabeledExtract("", "eae_prk", dh), "shared_secret", enc ‖ pkRm, 32).
        let eaePRK = Self.labeledExtract(salt: Self.noSalt, "eae_prk", dh, suite: Self.kemSuite)
        let kemContext = Array(encapsulatedKey) + recipientPublicKey
        let sharedSecret = Self.labeledExpand(eaePRK, "shared_secret", kemContext, length: 32, suite: Self.kemSuite)
        // Key schedule, base mode (no PSK): secret = LabeledExtract(shared_secret, "secret", "").
        let secret = Self.labeledExtract(salt: sharedSecret, "secret", [], suite: Self.hpkeSuite)
        let key = Self.labeledExpand(secret, "key", keyScheduleContext, length: 32, suite: Self.hpkeSuite)
        // The first message's nonce: base_nonce ⊕ 0.
        let nonce = Self.labeledExpand(secret, "base_nonce", keyScheduleContext, length: 12, suite: Self.hpkeSuite)
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext.dropLast(Self.tagLength),
            tag: ciphertext.suffix(Self.tagLength))
        return try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: authenticatedData)
    }

    /// Names the type only: keys never go to logs.
    package var description: String { "CardDataRecipientKey(<redacted>)" }

    package var customMirror: Mirror { Mirror(self, children: []) }

    /// LabeledExtract(salt, label, ikm) = HMAC(salt, "HPKE-v1" ‖ suite ‖ label ‖ ikm).
    private static func labeledExtract(
        salt: [UInt8], _ label: StaticString, _ ikm: [UInt8], suite: [UInt8]
    ) -> [UInt8] {
        hmac(key: salt, version + suite + bytes(label) + ikm)
    }

    /// LabeledExpand(prk, label, info, L) for L ≤ 32: the first L bytes of
    /// HMAC(prk, I2OSP(L, 2) ‖ "HPKE-v1" ‖ suite ‖ label ‖ info ‖ 0x01) (HKDF-Expand's first block).
    private static func labeledExpand(
        _ prk: [UInt8], _ label: StaticString, _ info: [UInt8], length: Int, suite: [UInt8]
    ) -> [UInt8] {
        let labeledInfo = [UInt8(length >> 8), UInt8(length & 0xFF)] + version + suite + bytes(label) + info
        return Array(hmac(key: prk, labeledInfo + [0x01]).prefix(length))
    }

    /// HMAC-SHA256 (RFC 2104) of a key of at most one block, on swift-crypto's SHA-256: its `HMAC` type cost more
    /// than the hashing itself for these short inputs (about 1.5 µs an HMAC, five per open).
    private static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var innerPad = [UInt8](repeating: 0x36, count: 64)
        var outerPad = [UInt8](repeating: 0x5C, count: 64)
        for (index, byte) in key.enumerated() {
            innerPad[index] ^= byte
            outerPad[index] ^= byte
        }
        var inner = SHA256()
        innerPad.withUnsafeBytes { inner.update(bufferPointer: $0) }
        message.withUnsafeBytes { inner.update(bufferPointer: $0) }
        var outer = SHA256()
        outerPad.withUnsafeBytes { outer.update(bufferPointer: $0) }
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize().withUnsafeBytes { Array($0) }
    }

    private static func bytes(_ label: StaticString) -> [UInt8] {
        Array(UnsafeBufferPointer(start: label.utf8Start, count: label.utf8CodeUnitCount))
    }
}
