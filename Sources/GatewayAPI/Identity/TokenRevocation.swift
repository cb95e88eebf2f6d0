public import Foundation

/// `POST /v1/token-revocations` (API key): revokes every reader token and reader session the gateway issued, up to
/// now, for one device (a lost phone), one merchant user (someone who left), or the whole merchant.
///
/// At most one of ``deviceId`` and ``userId``; neither revokes all of the merchant's. Tokens issued later are not
/// affected, so the device or user can be given new ones.
public struct TokenRevocationRequest: Sendable, Hashable, Codable {
    /// The device whose reader sessions are revoked.
    public var deviceId: String?
    /// The merchant user whose reader tokens are revoked.
    public var userId: String?

    /// Creates a request: a device's, a user's, or (neither) all of the merchant's.
    public init(deviceId: String? = nil, userId: String? = nil) {
        self.deviceId = deviceId
        self.userId = userId
    }
}

/// What a revocation covers, as the gateway recorded it.
public struct TokenRevocation: Sendable, Hashable, Codable {
    /// Which tokens: those of a device (sessions), of a user (reader tokens), or all of the merchant's.
    public enum Scope: String, Sendable, Hashable, Codable {
        case device, user, merchant
    }

    /// Which tokens.
    public var scope: Scope
    /// The device or user id; absent for the merchant scope.
    public var subject: String?
    /// Tokens issued up to this second are refused.
    public var revokedAt: Date

    /// Creates a revocation record.
    public init(scope: Scope, subject: String?, revokedAt: Date) {
        self.scope = scope
        self.subject = subject
        self.revokedAt = revokedAt
    }
}
