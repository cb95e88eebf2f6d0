import Foundation

extension Contact {
    /// The contact as PassKit hands it to the merchant before authorization: only the city, the state, a postal
    /// code prefix and the country survive, so a merchant can price shipping without learning who or where
    /// exactly the customer is.
    ///
    /// The postal code keeps the United Kingdom's outward code (`SW1A 1AA` → `SW1A`), Canada's forward sortation
    /// area (`K1A 0B1` → `K1A`) and the United States' five-digit ZIP (`95014-2083` → `95014`); elsewhere it stays
    /// whole, as Apple does.
    public func redacted() -> Contact {
        Contact(
            postalAddress: postalAddress.map { address in
                PostalAddress(
                    city: address.city, state: address.state,
                    postalCode: Self.postalCodePrefix(address.postalCode, country: address.isoCountryCode),
                    country: address.country, isoCountryCode: address.isoCountryCode)
            })
    }

    static func postalCodePrefix(_ code: String, country: String) -> String {
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        switch country.uppercased() {
        case "GB":
            if let space = trimmed.firstIndex(of: " ") { return String(trimmed[..<space]) }
            return String(trimmed.dropLast(3))
        case "CA": return String(trimmed.prefix(3))
        case "US": return String(trimmed.prefix(5))
        default: return trimmed
        }
    }
}
