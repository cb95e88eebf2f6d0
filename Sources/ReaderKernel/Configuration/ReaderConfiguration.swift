public import EMV
import Foundation

/// Everything a merchant reader knows before a card is presented: terminal data, accepted applications, limits per
/// kernel and currency, kernel settings and the CA public keys for offline data authentication.
///
/// Codable, with byte strings as hex text, currencies and countries by their ISO codes and the CA keys in the format
/// of ``CAPublicKeyList``, so a terminal management system can ship it as JSON.
public struct ReaderConfiguration: Sendable, Codable {
    /// Terminal Country Code (9F1A).
    public var terminalCountry: Country
    /// Terminal Type (9F35), e.g. `22` attended, online with offline capability, merchant operated.
    public var terminalType: UInt8
    /// Terminal Capabilities (9F33), 3 bytes; Kernel 2 replaces byte 2 with its CVM capability per transaction.
    public var terminalCapabilities: [UInt8]
    /// Additional Terminal Capabilities (9F40), 5 bytes.
    public var additionalTerminalCapabilities: [UInt8]
    /// Merchant Category Code (9F15), four digits, e.g. `5411`.
    public var merchantCategoryCode: String
    /// Merchant Name and Location (9F4E).
    public var merchantNameAndLocation: String
    /// Merchant Identifier (9F16), up to 15 characters.
    public var merchantIdentifier: String
    /// Terminal Identification (9F1C), up to 8 characters.
    public var terminalIdentifier: String
    /// Interface Device (IFD) Serial Number (9F1E), 8 characters.
    public var ifdSerialNumber: String
    /// The applications the reader accepts, each with its kernel.
    public var applications: [SupportedApplication]
    /// Limits per kernel and currency.
    public var limits: [ReaderLimits]
    /// Kernel 3 (Visa) settings.
    public var kernel3: Kernel3Settings
    /// Kernel 2 (Mastercard) settings.
    public var kernel2: Kernel2Settings
    /// The CA public keys offline data authentication recovers issuer keys with.
    public var caPublicKeys: CAPublicKeyList

    /// Creates a configuration.
    public init(
        terminalCountry: Country, terminalType: UInt8, terminalCapabilities: [UInt8],
        additionalTerminalCapabilities: [UInt8], merchantCategoryCode: String, merchantNameAndLocation: String,
        merchantIdentifier: String, terminalIdentifier: String, ifdSerialNumber: String,
        applications: [SupportedApplication], limits: [ReaderLimits], kernel3: Kernel3Settings,
        kernel2: Kernel2Settings, caPublicKeys: CAPublicKeyList
    ) {
        self.terminalCountry = terminalCountry
        self.terminalType = terminalType
        self.terminalCapabilities = terminalCapabilities
        self.additionalTerminalCapabilities = additionalTerminalCapabilities
        self.merchantCategoryCode = merchantCategoryCode
        self.merchantNameAndLocation = merchantNameAndLocation
        self.merchantIdentifier = merchantIdentifier
        self.terminalIdentifier = terminalIdentifier
        self.ifdSerialNumber = ifdSerialNumber
        self.applications = applications
        self.limits = limits
        self.kernel3 = kernel3
        self.kernel2 = kernel2
        self.caPublicKeys = caPublicKeys
    }

    /// The limits of `kernelID` in `currency`; nil when none are configured (then none are checked).
    public func limits(kernelID: UInt8, currency: Currency) -> ReaderLimits? {
        limits.first { $0.kernelID == kernelID && $0.currency == currency }
    }

    /// The EMV core's kernel for a Book B kernel identifier.
    static func kernel(id: UInt8) -> Kernel {
        switch id {
        case Kernel.c2.id: .c2
        case Kernel.c3.id: .c3
        default: Kernel(id: id, name: "C-\(id)")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case terminalCountry, terminalType, terminalCapabilities, additionalTerminalCapabilities
        case merchantCategoryCode, merchantNameAndLocation, merchantIdentifier, terminalIdentifier, ifdSerialNumber
        case applications, limits, kernel3, kernel2, caPublicKeys
    }

    /// Decodes the JSON form; `caPublicKeys` takes the array format of ``CAPublicKeyList``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let country = try container.decode(String.self, forKey: .terminalCountry)
        guard let terminalCountry = Country(alpha2: country) else {
            throw DecodingError.dataCorruptedError(
                forKey: .terminalCountry, in: container, debugDescription: "not an ISO 3166-1 alpha-2 code")
        }
        self.terminalCountry = terminalCountry
        let type = try container.decodeHex(.terminalType)
        guard type.count == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .terminalType, in: container, debugDescription: "one byte")
        }
        terminalType = type[0]
        terminalCapabilities = try container.decodeHex(.terminalCapabilities)
        additionalTerminalCapabilities = try container.decodeHex(.additionalTerminalCapabilities)
        merchantCategoryCode = try container.decode(String.self, forKey: .merchantCategoryCode)
        merchantNameAndLocation = try container.decode(String.self, forKey: .merchantNameAndLocation)
        merchantIdentifier = try container.decode(String.self, forKey: .merchantIdentifier)
        terminalIdentifier = try container.decode(String.self, forKey: .terminalIdentifier)
        ifdSerialNumber = try container.decode(String.self, forKey: .ifdSerialNumber)
        applications = try container.decode([SupportedApplication].self, forKey: .applications)
        limits = try container.decode([ReaderLimits].self, forKey: .limits)
        kernel3 = try container.decode(Kernel3Settings.self, forKey: .kernel3)
        kernel2 = try container.decode(Kernel2Settings.self, forKey: .kernel2)
        // The key list has its own JSON format and validation (checksums); reuse it by round-tripping the subtree.
        let keys = try container.decode(JSONValue.self, forKey: .caPublicKeys)
        caPublicKeys = try CAPublicKeyList(jsonData: JSONEncoder().encode(keys))
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(terminalCountry.alpha2, forKey: .terminalCountry)
        try container.encodeHex([terminalType], forKey: .terminalType)
        try container.encodeHex(terminalCapabilities, forKey: .terminalCapabilities)
        try container.encodeHex(additionalTerminalCapabilities, forKey: .additionalTerminalCapabilities)
        try container.encode(merchantCategoryCode, forKey: .merchantCategoryCode)
        try container.encode(merchantNameAndLocation, forKey: .merchantNameAndLocation)
        try container.encode(merchantIdentifier, forKey: .merchantIdentifier)
        try container.encode(terminalIdentifier, forKey: .terminalIdentifier)
        try container.encode(ifdSerialNumber, forKey: .ifdSerialNumber)
        try container.encode(applications, forKey: .applications)
        try container.encode(limits, forKey: .limits)
        try container.encode(kernel3, forKey: .kernel3)
        try container.encode(kernel2, forKey: .kernel2)
        try container.encode(
            JSONDecoder().decode(JSONValue.self, from: caPublicKeys.jsonData()), forKey: .caPublicKeys)
    }
}
