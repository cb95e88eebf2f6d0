public import EMV

/// A kernel's limits in one currency (EMV Contactless Book A, 5.2 and Book B, 3.1.1), in minor units; a limit that is
/// nil is not checked.
public struct ReaderLimits: Sendable, Hashable, Codable {
    /// The kernel the limits apply to (2 Mastercard, 3 Visa).
    public var kernelID: UInt8
    /// The transaction currency the limits are in.
    public var currency: Currency
    /// Reader Contactless Transaction Limit: at or above it the card must be read another way.
    public var contactlessTransactionLimit: Int?
    /// Reader CVM Required Limit: at or above it the cardholder must be verified.
    public var cvmRequiredLimit: Int?
    /// Reader Contactless Floor Limit: above it the transaction goes online.
    public var floorLimit: Int?

    /// Creates limits.
    public init(
        kernelID: UInt8, currency: Currency, contactlessTransactionLimit: Int?, cvmRequiredLimit: Int?, floorLimit: Int?
    ) {
        self.kernelID = kernelID
        self.currency = currency
        self.contactlessTransactionLimit = contactlessTransactionLimit
        self.cvmRequiredLimit = cvmRequiredLimit
        self.floorLimit = floorLimit
    }

    private enum CodingKeys: String, CodingKey {
        case kernelID, currency, contactlessTransactionLimit, cvmRequiredLimit, floorLimit
    }

    /// Decodes `{"kernelID": 3, "currency": "EUR", "contactlessTransactionLimit": 50000, ...}` (minor units).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kernelID = try container.decode(UInt8.self, forKey: .kernelID)
        currency = try container.decodeCurrency(.currency)
        contactlessTransactionLimit = try container.decodeIfPresent(Int.self, forKey: .contactlessTransactionLimit)
        cvmRequiredLimit = try container.decodeIfPresent(Int.self, forKey: .cvmRequiredLimit)
        floorLimit = try container.decodeIfPresent(Int.self, forKey: .floorLimit)
    }

    /// Encodes the currency by its alphabetic code and the limits in minor units.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kernelID, forKey: .kernelID)
        try container.encode(currency.alphabeticCode, forKey: .currency)
        try container.encodeIfPresent(contactlessTransactionLimit, forKey: .contactlessTransactionLimit)
        try container.encodeIfPresent(cvmRequiredLimit, forKey: .cvmRequiredLimit)
        try container.encodeIfPresent(floorLimit, forKey: .floorLimit)
    }
}
