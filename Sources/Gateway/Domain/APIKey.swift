import Crypto
public import Foundation

/// A merchant's secret API key, for its own server (`Authorization: Bearer sk_…`): scoped to one merchant, stored
/// only as the SHA-256 of the secret, revocable.
///
/// The secret is 256 random bits, so an unkeyed hash is enough: nobody can search the key space from the hash.
public struct APIKey: Sendable, Hashable, Codable {
    /// `key_…`: names the key without revealing it.
    public var id: String
    /// The merchant.
    public var merchantId: String
    /// When it was created.
    public var createdAt: Date
    /// When it was revoked; nil while it is valid.
    public var revokedAt: Date?
    /// What the merchant calls it (`checkout server`).
    public var name: String?
    /// When it last authenticated a request, to the minute.
    public var lastUsedAt: Date?

    /// Creates a key record.
    public init(
        id: String, merchantId: String, createdAt: Date, revokedAt: Date? = nil, name: String? = nil,
        lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.merchantId = merchantId
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.name = name
        self.lastUsedAt = lastUsedAt
    }

    /// The prefix of every secret, how the authenticator tells an API key from a JWT.
    public static let secretPrefix = "sk_"

    /// A secret: shown once at creation, never stored, never printed by `description`.
    public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        /// The secret text, `sk_` + 43 base64url characters.
        public let value: String

        /// Wraps a secret received from a caller.
        public init(_ value: String) { self.value = value }

        /// A new random secret.
        static func generate() -> Secret {
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let base64url = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            return Secret(APIKey.secretPrefix + base64url)
        }

        /// The stored form: SHA-256 of the text.
        var hash: [UInt8] { Array(SHA256.hash(data: Data(value.utf8))) }

        /// Redacted.
        public var description: String { "APIKey.Secret(redacted)" }
        /// Redacted.
        public var customMirror: Mirror { Mirror(self, children: []) }
    }
}
