/// The body of `POST /v1/reader-tokens` (API key auth): issue a reader token to one of the merchant's users, for
/// the merchant app to hand to `PaymentCardReader`.
public struct ReaderTokenRequest: Sendable, Hashable, Codable {
    /// The longest lifetime a reader token may have: 24 hours.
    public static let maximumLifetime = 24 * 60 * 60
    /// The lifetime when none is asked: 1 hour.
    public static let defaultLifetime = 60 * 60

    /// The merchant user (`usr_…`) the token acts for; their role decides whether it may link the account.
    public var userId: String
    /// Whether the token may relink an account that is already linked.
    public var allowsRelinking: Bool
    /// The lifetime in seconds, 60 to ``maximumLifetime``; nil for ``defaultLifetime``.
    public var lifetime: Int?

    /// Creates a request.
    public init(userId: String, allowsRelinking: Bool = false, lifetime: Int? = nil) {
        self.userId = userId
        self.allowsRelinking = allowsRelinking
        self.lifetime = lifetime
    }

    private enum CodingKeys: String, CodingKey {
        case userId, allowsRelinking, lifetime
    }

    /// Decodes the body; `allowsRelinking` defaults to false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decode(String.self, forKey: .userId)
        allowsRelinking = try container.decodeIfPresent(Bool.self, forKey: .allowsRelinking) ?? false
        lifetime = try container.decodeIfPresent(Int.self, forKey: .lifetime)
    }
}
