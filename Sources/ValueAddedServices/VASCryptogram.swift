public import Crypto
import EMV
public import Foundation

/// The encrypted pass message a wallet answers GET VAS DATA with (9F27), version 1:
///
/// | bytes | what |
/// | --- | --- |
/// | 4 | key id: the first 4 bytes of SHA-256 over the merchant key's x coordinate |
/// | 32 | the wallet's ephemeral P-256 public key, x coordinate only (ECDH needs no y) |
/// | n + 16 | AES-256-GCM (16 zero bytes of IV, no additional data) of a 4-byte big-endian timestamp (seconds since 1 January 2001) and the message, then the tag |
///
/// The key is ANSI X9.63's KDF with SHA-256 over the ECDH shared secret, with shared info
/// `0D ‖ "id-aes256-GCM" ‖ "ApplePay encrypted VAS data" ‖ SHA-256(pass type identifier)`: a cryptogram opens only
/// for the pass type it was made for.
public enum VASCryptogram {
    /// Bytes before the ciphertext: key id and ephemeral key.
    static let headerLength = 4 + 32
    /// The smallest cryptogram: header, timestamp and tag.
    public static let minimumLength = headerLength + 4 + 16

    /// The key id a cryptogram for `key` starts with.
    public static func keyID(of key: P256.KeyAgreement.PublicKey) -> [UInt8] {
        Array(SHA256.hash(data: xCoordinate(of: key)).prefix(4))
    }

    /// SHA-256 of a pass type identifier: how readers name the pass they want (GET VAS DATA's 9F25).
    public static func merchantIDHash(_ passTypeIdentifier: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(passTypeIdentifier.utf8)))
    }

    /// Encrypts `message` as the wallet does for a reader of `passTypeIdentifier`, with a fresh ephemeral key unless
    /// one is given (tests fix it).
    public static func seal(
        _ message: String, timestamp: Date, passTypeIdentifier: String, to merchantKey: P256.KeyAgreement.PublicKey,
        ephemeralKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()
    ) throws(VASError) -> [UInt8] {
        let seconds = UInt32(clamping: Int64(timestamp.timeIntervalSinceReferenceDate.rounded(.down)))
        let plaintext = withUnsafeBytes(of: seconds.bigEndian, Array.init) + Array(message.utf8)
        do {
            let secret = try ephemeralKey.sharedSecretFromKeyAgreement(with: merchantKey)
            let key = symmetricKey(secret, passTypeIdentifier: passTypeIdentifier)
            let box = try AES.GCM.seal(plaintext, using: key, nonce: try AES.GCM.Nonce(data: zeroIV))
            return keyID(of: merchantKey) + xCoordinate(of: ephemeralKey.publicKey) + Array(box.ciphertext)
                + Array(box.tag)
        } catch {
            throw VASError(.invalidKey, "the merchant key does not agree with a P-256 key")
        }
    }

    /// The 16 zero bytes of IV: each key is used once, since the ephemeral key is.
    static let zeroIV = [UInt8](repeating: 0, count: 16)

    static func symmetricKey(_ secret: SharedSecret, passTypeIdentifier: String) -> SymmetricKey {
        let sharedInfo =
            [0x0D] + Array("id-aes256-GCM".utf8) + Array("ApplePay encrypted VAS data".utf8)
            + merchantIDHash(passTypeIdentifier)
        return secret.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: 32)
    }

    static func xCoordinate(of key: P256.KeyAgreement.PublicKey) -> [UInt8] {
        Array(key.rawRepresentation.prefix(32))
    }
}

/// A pass message a merchant decrypted: what the wallet sent and when, by its clock.
public struct VASMessage: Sendable, Hashable {
    /// The pass type the cryptogram was made for.
    public let passTypeIdentifier: String
    /// The pass's message (a member number, say).
    public let message: String
    /// When the wallet made the cryptogram, to the second.
    public let timestamp: Date
}

/// The merchant's side: opens cryptograms with the merchant's private keys (several, while keys rotate; a
/// cryptogram's key id picks the one), rejecting any made outside a window around now.
///
/// ```swift
/// let decryptor = VASDecryptor(keys: [try P256.KeyAgreement.PrivateKey(pemRepresentation: pem)])
/// let member = try decryptor.decrypt(entry.customerVASData, passTypeIdentifier: "pass.com.example.coffee").message
/// ```
public struct VASDecryptor: Sendable {
    /// How far the wallet's timestamp may be from the merchant's clock, either way, by default: five minutes. A
    /// cryptogram carries no reader nonce, so this window is what stops one recorded earlier from being replayed
    /// later; phones keep network time, readers should too.
    public static let defaultTimestampWindow: TimeInterval = 300

    private let keys: [(id: [UInt8], key: P256.KeyAgreement.PrivateKey)]
    /// How far the wallet's timestamp may be from now, either way; nil accepts any (known-answer vectors).
    public let timestampWindow: TimeInterval?

    public init(keys: [P256.KeyAgreement.PrivateKey], timestampWindow: TimeInterval? = defaultTimestampWindow) {
        self.keys = keys.map { (VASCryptogram.keyID(of: $0.publicKey), $0) }
        self.timestampWindow = timestampWindow
    }

    /// Opens `cryptogram` (GET VAS DATA's 9F27, ProximityReader's `customerVASData`) made for `passTypeIdentifier`.
    /// - Throws: ``VASError`` `truncatedCryptogram`, `unknownKeyID`, `invalidEphemeralKey`, `authenticationFailed`
    ///   (altered, or for another pass type), `timestampOutsideWindow`, `invalidMessage`.
    public func decrypt(
        _ cryptogram: some Collection<UInt8>, passTypeIdentifier: String, now: Date = Date()
    ) throws(VASError) -> VASMessage {
        let bytes = Array(cryptogram)
        guard bytes.count >= VASCryptogram.minimumLength else {
            throw VASError(
                .truncatedCryptogram,
                "a cryptogram has at least \(VASCryptogram.minimumLength) bytes, got \(bytes.count)")
        }
        let id = Array(bytes[0..<4])
        guard let key = keys.first(where: { $0.id == id })?.key else {
            throw VASError(.unknownKeyID, "no merchant key has key id \(id.hexString)")
        }
        let ephemeral: P256.KeyAgreement.PublicKey
        do {
            // Either y works for ECDH: the shared secret is the x coordinate of the product.
            ephemeral = try P256.KeyAgreement.PublicKey(compressedRepresentation: [0x02] + bytes[4..<36])
        } catch {
            throw VASError(.invalidEphemeralKey, "the ephemeral key is not a point on P-256")
        }
        let plaintext: Data
        do {
            let secret = try key.sharedSecretFromKeyAgreement(with: ephemeral)
            let symmetric = VASCryptogram.symmetricKey(secret, passTypeIdentifier: passTypeIdentifier)
            let box = try AES.GCM.SealedBox(
                nonce: try AES.GCM.Nonce(data: VASCryptogram.zeroIV), ciphertext: bytes[36..<(bytes.count - 16)],
                tag: bytes[(bytes.count - 16)...])
            plaintext = try AES.GCM.open(box, using: symmetric)
        } catch {
            throw VASError(
                .authenticationFailed,
                "the cryptogram does not verify for \(passTypeIdentifier) under key \(id.hexString)")
        }
        let seconds = plaintext.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let timestamp = Date(timeIntervalSinceReferenceDate: TimeInterval(seconds))
        if let timestampWindow, abs(timestamp.timeIntervalSince(now)) > timestampWindow {
            throw VASError(
                .timestampOutsideWindow,
                "made at \(timestamp), \(Int(timestamp.timeIntervalSince(now))) s from now; "
                    + "the window is ±\(Int(timestampWindow)) s")
        }
        guard let message = String(bytes: plaintext.dropFirst(4), encoding: .utf8) else {
            throw VASError(.invalidMessage, "the decrypted message is not UTF-8")
        }
        return VASMessage(passTypeIdentifier: passTypeIdentifier, message: message, timestamp: timestamp)
    }
}
