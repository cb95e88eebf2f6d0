/// The body of `POST /v1/account-links` (reader token auth): accept the Terms and Conditions for the token's
/// merchant, from a device, as `PaymentCardReader.linkAccount(using:)` and `relinkAccount(using:)` do.
///
/// Only a merchant admin may (`adminRequired`); an account already linked answers `accountAlreadyLinked` unless
/// ``relink`` is set, and relinking takes a token that allows it (`relinkNotAllowed`). Once accepted, the link holds
/// for the merchant on every device.
public struct AccountLinkRequest: Sendable, Hashable, Codable {
    /// The device the merchant accepted on (recorded in the audit log).
    public var deviceId: String
    /// Whether this accepts the terms again for an account that is already linked.
    public var relink: Bool

    /// Creates a request.
    public init(deviceId: String, relink: Bool = false) {
        self.deviceId = deviceId
        self.relink = relink
    }

    private enum CodingKeys: String, CodingKey {
        case deviceId, relink
    }

    /// Decodes the body; `relink` defaults to false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceId = try container.decode(String.self, forKey: .deviceId)
        relink = try container.decodeIfPresent(Bool.self, forKey: .relink) ?? false
    }
}
