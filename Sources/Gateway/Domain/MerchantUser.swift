public import Foundation

/// A person of a merchant who uses the merchant app: an admin may accept the Terms and Conditions (link the
/// account), staff may only take payments.
public struct MerchantUser: Sendable, Hashable, Codable {
    /// What the user may do.
    public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
        /// May link the account and take payments.
        case admin
        /// May take payments.
        case staff
    }

    /// `usr_…`.
    public var id: String
    /// The merchant.
    public var merchantId: String
    /// The email address, lowercased; unique per merchant.
    public var email: String
    /// The role.
    public var role: Role
    /// When the user was added.
    public var createdAt: Date

    /// Creates a user.
    public init(id: String, merchantId: String, email: String, role: Role, createdAt: Date) {
        self.id = id
        self.merchantId = merchantId
        self.email = email
        self.role = role
        self.createdAt = createdAt
    }

    /// `email` trimmed and lowercased.
    /// - Throws: ``DomainError/Code/invalidInput`` unless it looks like `local@domain`, at most 254 characters.
    static func normalizedEmail(_ email: String) throws(DomainError) -> String {
        let trimmed = email.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard trimmed.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !trimmed.contains(where: \.isWhitespace)
        else { throw DomainError("the email address is not valid") }
        return trimmed
    }
}
