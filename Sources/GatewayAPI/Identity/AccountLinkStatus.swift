public import Foundation

/// Whether a merchant's account is linked (its Terms and Conditions accepted): the answer to
/// `POST /v1/account-links` and `GET /v1/account-links?deviceId=…` (`PaymentCardReader.isAccountLinked(using:)`).
public struct AccountLinkStatus: Sendable, Hashable, Codable {
    /// The merchant.
    public var merchantId: String
    /// Whether the terms are accepted; the same on every device.
    public var isLinked: Bool
    /// When they were (last) accepted.
    public var linkedAt: Date?
    /// The merchant user (`usr_…`) who accepted them.
    public var linkedBy: String?

    /// Creates a status.
    public init(merchantId: String, isLinked: Bool, linkedAt: Date? = nil, linkedBy: String? = nil) {
        self.merchantId = merchantId
        self.isLinked = isLinked
        self.linkedAt = linkedAt
        self.linkedBy = linkedBy
    }
}
