import Crypto
import Foundation

/// The keys that encrypt data at rest (AES-256-GCM), as envelope encryption: data keys, each wrapped by the key
/// file's data key (the key-encryption key), live in the database (`data_keys`), so every gateway node sealing and
/// opening rows learns a new one from there, and rotating one re-encrypts rows while the gateway runs
/// (``DataKeyRotation``).
///
/// A sealed value names its key: `DE 01`, the key id's length and bytes, then nonce ‖ ciphertext ‖ tag, the header
/// authenticated with the caller's data. Until the first rotation there are no data keys, and values are sealed
/// under the key-encryption key itself, with no header, as before there were data keys; they open as ever.
public final class DataKeyRing: @unchecked Sendable {
    private static let magic: [UInt8] = [0xDE, 0x01]

    private let keyEncryptionKey: SymmetricKey
    private let lock = NSLock()
    private var keys: [String: SymmetricKey] = [:]
    /// The keys that become current, newest first, with when.
    private var activations: [(id: String, key: SymmetricKey, at: Date)] = []
    private let clock: @Sendable () -> Date

    init(keyEncryptionKey: SymmetricKey, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.keyEncryptionKey = keyEncryptionKey
        self.clock = clock
    }

    /// The key new values are sealed under now: the newest whose activation time has come. Every node switches at
    /// that time, not when it next loads the keys.
    private var current: (id: String, key: SymmetricKey)? {
        let now = clock()
        return lock.withLock { activations.first { $0.at <= now }.map { ($0.id, $0.key) } }
    }

    /// The id of the key new values are sealed under; nil while values are sealed under the key-encryption key.
    public var currentKeyId: String? { current?.id }

    /// Encrypts `plaintext` under the current key, binding `authenticating`.
    func seal(_ plaintext: [UInt8], authenticating: [UInt8]) -> [UInt8] {
        guard let current else { return Self.seal(plaintext, key: keyEncryptionKey, authenticating: authenticating) }
        let header = Self.magic + [UInt8(current.id.utf8.count)] + Array(current.id.utf8)
        return header + Self.seal(plaintext, key: current.key, authenticating: header + authenticating)
    }

    /// Decrypts what ``seal(_:authenticating:)`` returned, under whichever key sealed it.
    /// - Throws: ``GatewayKeysError/Code/cannotOpen`` when no key opens it.
    func open(_ sealed: [UInt8], authenticating: [UInt8]) throws(GatewayKeysError) -> [UInt8] {
        if let (id, headerLength) = Self.header(of: sealed), let key = lock.withLock({ keys[id] }),
            let plaintext = Self.open(
                sealed[headerLength...], key: key, authenticating: Array(sealed[..<headerLength]) + authenticating)
        {
            return plaintext
        }
        // No header (or a nonce that happens to start like one): sealed under the key-encryption key.
        if let plaintext = Self.open(sealed[...], key: keyEncryptionKey, authenticating: authenticating) {
            return plaintext
        }
        throw GatewayKeysError(.cannotOpen, "the data does not open under the data key")
    }

    /// The id of the key `sealed` names; nil for a value sealed under the key-encryption key.
    public func keyId(of sealed: [UInt8]) -> String? {
        guard let (id, _) = Self.header(of: sealed), lock.withLock({ keys[id] != nil }) else { return nil }
        return id
    }

    /// A new random data key wrapped by the key-encryption key, bound to `id`.
    func wrapNewKey(id: String) -> [UInt8] {
        Self.seal(
            SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }, key: keyEncryptionKey,
            authenticating: Array(id.utf8))
    }

    /// Takes the database's keys: each wrapped key with when it becomes current.
    /// - Throws: ``GatewayKeysError/Code/cannotOpen`` for a key the key-encryption key does not unwrap (another key
    ///   file's).
    func load(_ rows: [(id: String, wrapped: [UInt8], activatedAt: Date)]) throws(GatewayKeysError) {
        var unwrapped: [(id: String, key: SymmetricKey, at: Date)] = []
        for row in rows {
            guard let bytes = Self.open(row.wrapped[...], key: keyEncryptionKey, authenticating: Array(row.id.utf8))
            else { throw GatewayKeysError(.cannotOpen, "data key \(row.id) does not unwrap under this key file") }
            unwrapped.append((row.id, SymmetricKey(data: bytes), row.activatedAt))
        }
        lock.withLock {
            keys = Dictionary(unwrapped.map { ($0.id, $0.key) }, uniquingKeysWith: { $1 })
            activations = unwrapped.sorted { $0.at > $1.at }
        }
    }

    private static func header(of sealed: [UInt8]) -> (id: String, length: Int)? {
        guard sealed.count > 3, sealed[0] == magic[0], sealed[1] == magic[1] else { return nil }
        let length = 3 + Int(sealed[2])
        guard sealed.count >= length + 28, let id = String(validating: sealed[3..<length], as: UTF8.self) else {
            return nil
        }
        return (id, length)
    }

    private static func seal(_ plaintext: [UInt8], key: SymmetricKey, authenticating: [UInt8]) -> [UInt8] {
        // AES-GCM with a fresh random nonce fails only for an invalid key size, which a 32-byte key rules out.
        guard let box = try? AES.GCM.seal(plaintext, using: key, authenticating: authenticating),
            let combined = box.combined
        else { return [] }
        return Array(combined)
    }

    private static func open(_ sealed: ArraySlice<UInt8>, key: SymmetricKey, authenticating: [UInt8]) -> [UInt8]? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let plaintext = try? AES.GCM.open(box, using: key, authenticating: authenticating)
        else { return nil }
        return Array(plaintext)
    }
}
