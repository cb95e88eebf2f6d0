public import Crypto
public import Foundation
public import GatewayAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PSP's keys: the ES256 key that signs reader tokens and sessions, the HPKE key-agreement keys card data is
/// sealed to (the current one and retired ones still accepted, by key id), the data key that encrypts card data
/// at rest (AES-256-GCM), and the secret the embedded issuer host derives its own data keys from
/// (``embeddedIssuerSecret``).
///
/// Kept in one JSON file, `keys.json` under the data directory, mode 0600: ``loadOrCreate(directory:now:)``
/// generates every key on the first start and refuses a file its group or others may read. Nothing here prints a
/// key: ``description`` and the mirror name key ids only.
public struct GatewayKeys: Sendable, CustomStringConvertible, CustomReflectable {
    /// The key file's name in the data directory.
    public static let fileName = "keys.json"

    /// The id of the signing key, the `kid` header of every token.
    public let signingKeyId: String
    let signingKey: P256.Signing.PrivateKey
    /// The id of the HPKE key devices are told to seal to.
    public private(set) var currentCardDataKeyId: String
    private var cardDataKeys: [CardDataKey]
    /// The AES-256 key for data at rest: it seals values itself until the first data key rotation, and wraps the
    /// data keys (``dataKeyRing``) after; use ``seal(_:authenticating:)`` and ``open(_:authenticating:)``.
    public let dataKey: SymmetricKey
    /// The data keys from the database, shared by every copy of these keys (see ``DataKeyRing``).
    public let dataKeyRing: DataKeyRing
    /// 32 random bytes from which the issuer host that runs inside the gateway (`tap serve` without `--issuer`)
    /// derives the keys it protects PANs at rest with, so that the database alone gives away no PAN. Nil only for a
    /// key file written before it existed; such a data directory keeps the public test keys for its issuer.
    public let embeddedIssuerSecret: SymmetricKey?
    /// The file the keys were loaded from or written to; ``rotate(now:)`` persists there.
    public private(set) var fileURL: URL?

    private struct CardDataKey: Sendable {
        var id: String
        var privateKey: P256.KeyAgreement.PrivateKey
        var createdAt: Date
        var retiredAt: Date?
    }

    private init(
        signingKey: P256.Signing.PrivateKey, cardDataKeys: [CardDataKey], currentCardDataKeyId: String,
        dataKey: SymmetricKey, embeddedIssuerSecret: SymmetricKey?
    ) {
        self.signingKey = signingKey
        signingKeyId = Self.keyId(prefix: "es256", publicKey: signingKey.publicKey.x963Representation)
        self.cardDataKeys = cardDataKeys
        self.currentCardDataKeyId = currentCardDataKeyId
        self.dataKey = dataKey
        dataKeyRing = DataKeyRing(keyEncryptionKey: dataKey)
        self.embeddedIssuerSecret = embeddedIssuerSecret
    }

    /// Fresh keys in memory (tests, or before ``write(to:)``).
    public static func generate(now: Date = Date()) -> GatewayKeys {
        let first = newCardDataKey(now: now)
        return GatewayKeys(
            signingKey: P256.Signing.PrivateKey(), cardDataKeys: [first], currentCardDataKeyId: first.id,
            dataKey: SymmetricKey(size: .bits256), embeddedIssuerSecret: SymmetricKey(size: .bits256))
    }

    /// Loads `directory/keys.json`, or generates keys and writes them there (mode 0600, creating the directory with
    /// mode 0700) when there is no file yet.
    /// - Throws: ``GatewayKeysError`` (``GatewayKeysError/Code/insecurePermissions`` for a file others may read).
    public static func loadOrCreate(directory: URL, now: Date = Date()) throws(GatewayKeysError) -> GatewayKeys {
        let url = directory.appendingPathComponent(fileName)
        if FileManager.default.fileExists(atPath: url.path) { return try load(from: url) }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw GatewayKeysError(.writeFailed, "cannot create the data directory \(directory.path)")
        }
        var keys = generate(now: now)
        guard try keys.write(to: url, replacing: false) else {
            // Another process (a second node starting at the same moment) wrote its keys first: use those.
            return try load(from: url)
        }
        return keys
    }

    /// Loads a key file.
    /// - Throws: ``GatewayKeysError/Code/insecurePermissions`` when the file's group or others have any access,
    ///   ``GatewayKeysError/Code/unreadable`` or ``GatewayKeysError/Code/malformed``.
    public static func load(from url: URL) throws(GatewayKeysError) -> GatewayKeys {
        let mode: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard let permissions = attributes[.posixPermissions] as? NSNumber else {
                throw GatewayKeysError(.unreadable, "cannot read the mode of \(url.path)")
            }
            mode = permissions.intValue
        } catch let error as GatewayKeysError {
            throw error
        } catch {
            throw GatewayKeysError(.unreadable, "cannot read \(url.path)")
        }
        guard mode & 0o077 == 0 else {
            throw GatewayKeysError(
                .insecurePermissions,
                "\(url.path) has mode \(String(mode & 0o777, radix: 8)); it holds private keys and must be 0600 "
                    + "(chmod 600 \(url.path))")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw GatewayKeysError(.unreadable, "cannot read \(url.path)")
        }
        var keys = try decode(data, path: url.path)
        keys.fileURL = url
        return keys
    }

    /// Writes the keys to `url` atomically with mode 0600 (a new file renamed over the old), and remembers `url`
    /// for ``rotate(now:)``.
    /// - Throws: ``GatewayKeysError/Code/writeFailed``.
    public mutating func write(to url: URL) throws(GatewayKeysError) {
        _ = try write(to: url, replacing: true)
    }

    /// Writes the keys to `url`; unless `replacing`, only when there is no file yet. Returns whether it wrote.
    private mutating func write(to url: URL, replacing: Bool) throws(GatewayKeysError) -> Bool {
        let data: Data
        do { data = try KeyFile(self).encoded() } catch {
            throw GatewayKeysError(.writeFailed, "cannot encode the key file")
        }
        switch writeFileAtomically(data, to: url.path, mode: 0o600, replacing: replacing) {
        case .written:
            fileURL = url
            return true
        case .exists:
            return false
        case .failed:
            throw GatewayKeysError(.writeFailed, "cannot write \(url.path)")
        }
    }

    /// Adds a new current HPKE key; the previous ones stay (retired) so card data sealed to them while devices
    /// still hold the old key opens, and persists the file when there is one. Devices learn the new key at their
    /// next prepare.
    /// - Throws: ``GatewayKeysError/Code/writeFailed``; the keys in memory are unchanged then.
    public mutating func rotate(now: Date = Date()) throws(GatewayKeysError) {
        var rotated = self
        for index in rotated.cardDataKeys.indices where rotated.cardDataKeys[index].retiredAt == nil {
            rotated.cardDataKeys[index].retiredAt = now
        }
        let key = Self.newCardDataKey(now: now)
        rotated.cardDataKeys.append(key)
        rotated.currentCardDataKeyId = key.id
        if let fileURL { try rotated.write(to: fileURL) }
        self = rotated
    }

    /// Drops the retired HPKE keys retired before `date` (no data sealed to them can still be within its 60 s),
    /// and persists the file when there is one.
    /// - Throws: ``GatewayKeysError/Code/writeFailed``.
    public mutating func removeRetiredKeys(retiredBefore date: Date) throws(GatewayKeysError) {
        var pruned = self
        pruned.cardDataKeys.removeAll { $0.retiredAt.map { $0 < date } ?? false }
        if let fileURL { try pruned.write(to: fileURL) }
        self = pruned
    }

    /// The current HPKE public key, given to devices at prepare.
    public var currentCardDataPublicKey: P256.KeyAgreement.PublicKey {
        // The current id is always one of the keys (every mutation keeps it), so the first key is never used.
        (cardDataKeys.first { $0.id == currentCardDataKeyId } ?? cardDataKeys[0]).privateKey.publicKey
    }

    /// The ids of every HPKE key still accepted, oldest first.
    public var cardDataKeyIds: [String] { cardDataKeys.map(\.id) }

    /// The public key tokens are verified with.
    public var signingPublicKey: P256.Signing.PublicKey { signingKey.publicKey }

    /// A sealer to the current HPKE key (what a device builds from its provisioning).
    public func sealer() -> CardDataSealer {
        CardDataSealer(publicKey: currentCardDataPublicKey, keyId: currentCardDataKeyId)
    }

    /// An opener holding every accepted HPKE key.
    public func opener(
        replayStore: any SealedCardDataReplayStore, clock: @escaping @Sendable () -> Date = { Date() }
    ) -> CardDataOpener {
        CardDataOpener(
            privateKeys: Dictionary(cardDataKeys.map { ($0.id, $0.privateKey) }, uniquingKeysWith: { $1 }),
            replayStore: replayStore, clock: clock)
    }

    /// Encrypts `plaintext` with AES-256-GCM under the current data key (``dataKeyRing``), binding
    /// `authenticating` (e.g. the row's id).
    public func seal(_ plaintext: [UInt8], authenticating: [UInt8] = []) -> [UInt8] {
        dataKeyRing.seal(plaintext, authenticating: authenticating)
    }

    /// Decrypts what ``seal(_:authenticating:)`` returned, under whichever key sealed it.
    /// - Throws: ``GatewayKeysError/Code/cannotOpen`` when the bytes or the authenticated data were altered.
    public func open(_ sealed: [UInt8], authenticating: [UInt8] = []) throws(GatewayKeysError) -> [UInt8] {
        try dataKeyRing.open(sealed, authenticating: authenticating)
    }

    /// Key ids only.
    public var description: String {
        let ids = cardDataKeys.map { $0.id == currentCardDataKeyId ? "\($0.id) (current)" : $0.id }
        return "GatewayKeys(signing \(signingKeyId), card data keys [\(ids.joined(separator: ", "))])"
    }

    /// Key ids only, so `dump` shows no key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "signingKeyId": signingKeyId, "currentCardDataKeyId": currentCardDataKeyId,
                "cardDataKeyIds": cardDataKeyIds,
            ])
    }

    private static func newCardDataKey(now: Date) -> CardDataKey {
        let key = P256.KeyAgreement.PrivateKey()
        return CardDataKey(
            id: keyId(prefix: "hpke", publicKey: key.publicKey.x963Representation), privateKey: key, createdAt: now)
    }

    /// A key id from the public key's SHA-256: stable, and naming the key without revealing anything secret.
    private static func keyId(prefix: String, publicKey: Data) -> String {
        prefix + "_" + SHA256.hash(data: publicKey).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    private static func decode(_ data: Data, path: String) throws(GatewayKeysError) -> GatewayKeys {
        guard let file = try? JSONDecoder.gatewayAPI.decode(KeyFile.self, from: data), file.version == 1 else {
            throw GatewayKeysError(.malformed, "\(path) is not a version 1 key file")
        }
        do {
            let keys = try file.cardDataKeys.map { entry in
                CardDataKey(
                    id: entry.id, privateKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: entry.privateKey),
                    createdAt: entry.createdAt, retiredAt: entry.retiredAt)
            }
            guard keys.contains(where: { $0.id == file.currentCardDataKeyId }), file.dataKey.count == 32,
                file.embeddedIssuerSecret.map({ $0.count == 32 }) ?? true
            else {
                throw GatewayKeysError(.malformed, "\(path) has no current card data key or a bad data key")
            }
            return GatewayKeys(
                signingKey: try P256.Signing.PrivateKey(rawRepresentation: file.signingKey), cardDataKeys: keys,
                currentCardDataKeyId: file.currentCardDataKeyId, dataKey: SymmetricKey(data: file.dataKey),
                embeddedIssuerSecret: file.embeddedIssuerSecret.map { SymmetricKey(data: $0) })
        } catch let error as GatewayKeysError {
            throw error
        } catch {
            throw GatewayKeysError(.malformed, "\(path) holds a key that is not a valid P-256 key")
        }
    }

    /// The file's JSON form; keys as base64 raw representations.
    private struct KeyFile: Codable {
        struct Entry: Codable {
            var id: String
            var privateKey: Data
            var createdAt: Date
            var retiredAt: Date?
        }

        var version: Int
        var signingKey: Data
        var currentCardDataKeyId: String
        var cardDataKeys: [Entry]
        var dataKey: Data
        var embeddedIssuerSecret: Data?

        init(_ keys: GatewayKeys) {
            version = 1
            signingKey = keys.signingKey.rawRepresentation
            currentCardDataKeyId = keys.currentCardDataKeyId
            cardDataKeys = keys.cardDataKeys.map {
                Entry(
                    id: $0.id, privateKey: $0.privateKey.rawRepresentation, createdAt: $0.createdAt,
                    retiredAt: $0.retiredAt)
            }
            dataKey = keys.dataKey.withUnsafeBytes { Data($0) }
            embeddedIssuerSecret = keys.embeddedIssuerSecret?.withUnsafeBytes { Data($0) }
        }

        func encoded() throws -> Data {
            let encoder = JSONEncoder.gatewayAPI
            encoder.outputFormatting.insert(.prettyPrinted)
            return try encoder.encode(self)
        }
    }
}

/// What ``writeFileAtomically(_:to:mode:replacing:)`` did.
private enum FileWrite {
    case written, exists, failed
}

/// Writes `data` to a new file with `mode`, syncs it and moves it to `path`: renamed over an existing file when
/// `replacing`, else linked only if `path` does not exist yet (so two processes creating keys at once can't both
/// win). There is no moment the keys sit in a file with a wider mode, and a crash leaves the old file or the new
/// one. (A free function: inside ``GatewayKeys`` the POSIX `open` and `write` are shadowed by its methods.)
private func writeFileAtomically(_ data: Data, to path: String, mode: mode_t, replacing: Bool) -> FileWrite {
    let temporary = path + ".tmp-\(UInt32.random(in: .min ... .max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
    guard descriptor >= 0 else { return .failed }
    defer { unlink(temporary) }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced else { return .failed }
    if replacing { return rename(temporary, path) == 0 ? .written : .failed }
    if link(temporary, path) == 0 { return .written }
    return errno == EEXIST ? .exists : .failed
}
