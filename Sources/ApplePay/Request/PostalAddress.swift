/// A postal address, in the shape of Contacts' `CNPostalAddress` (which `PKContact` carries): every field a string,
/// empty when unknown.
public struct PostalAddress: Hashable, Sendable, Codable {
    /// Street and house number, possibly several lines.
    public var street: String
    /// The district within the city.
    public var subLocality: String
    /// The city (locality).
    public var city: String
    /// The county or similar (sub-administrative area).
    public var subAdministrativeArea: String
    /// The state or province (administrative area).
    public var state: String
    /// The postal code.
    public var postalCode: String
    /// The country's name as written.
    public var country: String
    /// The country's ISO 3166-1 alpha-2 code.
    public var isoCountryCode: String

    /// An address from its parts; all default to empty.
    public init(
        street: String = "", subLocality: String = "", city: String = "", subAdministrativeArea: String = "",
        state: String = "", postalCode: String = "", country: String = "", isoCountryCode: String = ""
    ) {
        self.street = street
        self.subLocality = subLocality
        self.city = city
        self.subAdministrativeArea = subAdministrativeArea
        self.state = state
        self.postalCode = postalCode
        self.country = country
        self.isoCountryCode = isoCountryCode
    }

    private enum CodingKeys: String, CodingKey {
        case street, subLocality, city, subAdministrativeArea, state, postalCode, country, isoCountryCode
    }

    /// Decodes the JSON form; absent fields are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field(_ key: CodingKeys) throws -> String { try container.decodeIfPresent(String.self, forKey: key) ?? "" }
        self.init(
            street: try field(.street), subLocality: try field(.subLocality), city: try field(.city),
            subAdministrativeArea: try field(.subAdministrativeArea), state: try field(.state),
            postalCode: try field(.postalCode), country: try field(.country),
            isoCountryCode: try field(.isoCountryCode))
    }
}
