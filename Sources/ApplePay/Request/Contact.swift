import Foundation

/// A billing or shipping contact, as PassKit's `PKContact`: name, postal address, email and phone.
public struct Contact: Hashable, Sendable, Codable {
    /// The person's name.
    public var name: PersonNameComponents?
    /// The postal address.
    public var postalAddress: PostalAddress?
    /// The email address.
    public var emailAddress: String?
    /// The phone number, as entered.
    public var phoneNumber: String?

    /// A contact from its parts.
    public init(
        name: PersonNameComponents? = nil, postalAddress: PostalAddress? = nil, emailAddress: String? = nil,
        phoneNumber: String? = nil
    ) {
        self.name = name
        self.postalAddress = postalAddress
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
    }
}
