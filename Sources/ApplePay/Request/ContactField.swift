/// A part of a contact the merchant needs, as PassKit's `PKContactField`.
public enum ContactField: String, Hashable, Sendable, Codable, CaseIterable {
    /// The person's name.
    case name
    /// The postal address.
    case postalAddress
    /// The email address.
    case emailAddress
    /// The phone number.
    case phoneNumber
    /// The phonetic spelling of the name (Japan).
    case phoneticName
}
