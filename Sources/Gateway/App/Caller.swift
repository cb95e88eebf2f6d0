/// Who sent a request, as its credentials say: a merchant's server (API key), a merchant app with a reader token,
/// or a prepared reader (a session bound to one device).
public struct Caller: Sendable, Hashable {
    /// How the caller authenticated.
    public enum Credential: String, Sendable, Hashable {
        /// A secret API key of the merchant (`Authorization: Bearer sk_…`): the merchant's own server.
        case apiKey
        /// A reader token (JWT) issued to a merchant user: linking and prepare.
        case readerToken
        /// A reader session (JWT) from prepare, bound to one device: payments from that device.
        case readerSession
        /// A merchant user signed in to the console (a session cookie): the merchant's payments, as its server.
        case consoleSession
    }

    /// How the caller authenticated.
    public var credential: Credential
    /// The merchant the credential belongs to.
    public var merchantId: String
    /// The device of a reader session.
    public var deviceId: String?
    /// The merchant user a reader token was issued to.
    public var userId: String?
    /// Whether that user is a merchant admin.
    public var isAdmin: Bool
    /// Whether the reader token allows relinking the account.
    public var allowsRelinking: Bool

    /// Creates a caller.
    public init(
        credential: Credential, merchantId: String, deviceId: String? = nil, userId: String? = nil,
        isAdmin: Bool = false, allowsRelinking: Bool = false
    ) {
        self.credential = credential
        self.merchantId = merchantId
        self.deviceId = deviceId
        self.userId = userId
        self.isAdmin = isAdmin
        self.allowsRelinking = allowsRelinking
    }
}
