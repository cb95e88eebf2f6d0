public import Foundation

/// The answer to `POST /v1/reader-tokens`: a reader token (an ES256 JWT signed by the PSP) and what it grants.
///
/// The token is a bearer credential: its ``description`` leaves it out, so logging the value is safe.
public struct ReaderToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The JWT, sent as `Authorization: Bearer …` to link the account and prepare devices.
    public var token: String
    /// The merchant it acts for.
    public var merchantId: String
    /// The merchant user it acts for.
    public var userId: String
    /// Whether it may relink an already linked account.
    public var allowsRelinking: Bool
    /// When it stops being accepted (`tokenExpired`).
    public var expiresAt: Date

    /// Creates a token description.
    public init(token: String, merchantId: String, userId: String, allowsRelinking: Bool, expiresAt: Date) {
        self.token = token
        self.merchantId = merchantId
        self.userId = userId
        self.allowsRelinking = allowsRelinking
        self.expiresAt = expiresAt
    }

    /// Everything but the token itself.
    public var description: String {
        "ReaderToken(merchant \(merchantId), user \(userId), relinking \(allowsRelinking), expires \(expiresAt))"
    }
}
