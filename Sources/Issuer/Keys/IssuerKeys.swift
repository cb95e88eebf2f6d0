import Crypto
import Foundation

/// The issuer host's key material: issuer master keys per BIN range, the data keys that protect PANs at rest, and
/// the PIN keys.
///
/// | key | algorithm | use |
/// |---|---|---|
/// | ``masterKeys`` | TDES, per BIN prefix | derive each card's ICC master keys, verify ARQCs, make ARPCs |
/// | PAN hash key | HMAC-SHA256 | the keyed hash accounts are found by |
/// | PAN encryption key | AES-256-GCM | the PAN at rest |
/// | PIN verification key | HMAC-SHA256 | the PIN verification value stored instead of the PIN |
/// | zone PIN key | TDES, 16 bytes | deciphers ISO 9564 format 0 PIN blocks (8-byte field 52) |
/// | PIN encryption key | AES-128/192/256 | deciphers ISO 9564 format 4 PIN blocks (16-byte field 52) |
///
/// The description and mirror never show key bytes.
public struct IssuerKeys: Sendable, CustomStringConvertible, CustomReflectable {
    /// Issuer master keys for one BIN range, given as a PAN prefix.
    public struct Range: Sendable, CustomStringConvertible {
        /// The leading PAN digits (the BIN or a longer account range) the keys cover.
        public let prefix: String
        /// The range's issuer master keys.
        public let keys: IssuerMasterKeys

        /// Creates a range.
        public init(prefix: String, keys: IssuerMasterKeys) {
            self.prefix = prefix
            self.keys = keys
        }

        /// The prefix only.
        public var description: String { "IssuerKeys.Range(\(prefix), <redacted>)" }
    }

    /// The BIN ranges; the longest matching prefix wins.
    public let masterKeys: [Range]
    let panHashKey: SymmetricKey
    let panEncryptionKey: SymmetricKey
    let pinVerificationKey: SymmetricKey
    let zonePINKey: [UInt8]
    let pinEncryptionKey: [UInt8]

    /// Assembles the key set.
    /// - Parameters:
    ///   - masterKeys: Issuer master keys per BIN range.
    ///   - panHashKey: HMAC-SHA256 key of the keyed PAN hash, 32 bytes.
    ///   - panEncryptionKey: AES-256-GCM key of the PAN at rest, 32 bytes.
    ///   - pinVerificationKey: HMAC-SHA256 key of PIN verification values, 32 bytes.
    ///   - zonePINKey: Double-length TDES key of format 0 PIN blocks, 16 bytes.
    ///   - pinEncryptionKey: AES key of format 4 PIN blocks, 16, 24 or 32 bytes.
    /// - Throws: ``IssuerError/invalidKey`` naming the first key of the wrong length.
    public init(
        masterKeys: [Range], panHashKey: [UInt8], panEncryptionKey: [UInt8], pinVerificationKey: [UInt8],
        zonePINKey: [UInt8], pinEncryptionKey: [UInt8]
    ) throws(IssuerError) {
        let lengths: [(String, [UInt8], Set<Int>)] = [
            ("PAN hash key", panHashKey, [32]), ("PAN encryption key", panEncryptionKey, [32]),
            ("PIN verification key", pinVerificationKey, [32]), ("zone PIN key", zonePINKey, [16]),
            ("PIN encryption key", pinEncryptionKey, [16, 24, 32]),
        ]
        for (name, key, allowed) in lengths where !allowed.contains(key.count) {
            throw IssuerError(.invalidKey, "the \(name) must have \(allowed.sorted()) bytes, not \(key.count)")
        }
        self.init(
            checkedMasterKeys: masterKeys, panHashKey: panHashKey, panEncryptionKey: panEncryptionKey,
            pinVerificationKey: pinVerificationKey, zonePINKey: zonePINKey, pinEncryptionKey: pinEncryptionKey)
    }

    /// Assembles keys whose lengths are known to be right.
    private init(
        checkedMasterKeys masterKeys: [Range], panHashKey: [UInt8], panEncryptionKey: [UInt8],
        pinVerificationKey: [UInt8], zonePINKey: [UInt8], pinEncryptionKey: [UInt8]
    ) {
        self.masterKeys = masterKeys
        self.panHashKey = SymmetricKey(data: panHashKey)
        self.panEncryptionKey = SymmetricKey(data: panEncryptionKey)
        self.pinVerificationKey = SymmetricKey(data: pinVerificationKey)
        self.zonePINKey = zonePINKey
        self.pinEncryptionKey = pinEncryptionKey
    }

    /// Fresh random data and PIN keys from the system's secure generator, with the given master keys.
    public static func generate(masterKeys: [Range]) -> IssuerKeys {
        func random(_ count: Int) -> [UInt8] {
            var generator = SystemRandomNumberGenerator()
            return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        return IssuerKeys(
            checkedMasterKeys: masterKeys, panHashKey: random(32), panEncryptionKey: random(32),
            pinVerificationKey: random(32), zonePINKey: random(16), pinEncryptionKey: random(16))
    }

    /// The issuer master keys of the longest prefix that `pan` starts with; nil when no range covers it.
    public func masterKeys(forPAN pan: String) -> IssuerMasterKeys? {
        masterKeys.filter { pan.hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count }?.keys
    }

    /// The BIN prefixes only.
    public var description: String {
        "IssuerKeys(ranges: \(masterKeys.map(\.prefix)), keys: <redacted>)"
    }

    /// The BIN prefixes only: `dump` shows no key.
    public var customMirror: Mirror {
        Mirror(self, children: ["ranges": masterKeys.map(\.prefix)], displayStyle: .struct)
    }
}
