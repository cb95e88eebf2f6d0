import EMV

/// The HMAC-SHA256 of a PAN under the issuer's PAN hash key: how the host finds an account without storing or
/// indexing the PAN itself.
///
/// Without the key the hash reveals nothing, but the description still shows only its first four bytes.
public struct KeyedPANHash: Hashable, Sendable, CustomStringConvertible {
    /// The 32 hash bytes.
    public let bytes: [UInt8]

    /// Wraps hash bytes read from storage.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The first four bytes in hex, enough to tell hashes apart in a log.
    public var description: String { "KeyedPANHash(\(bytes.prefix(4).hexString)…)" }
}
