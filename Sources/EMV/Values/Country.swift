/// An ISO 3166-1 country: alpha-2, alpha-3 and numeric code.
///
/// Every country is a static member named by its alpha-3 code (`Country.deu`, `Country.usa`;
/// `Country.allCases` lists them); look codes up with ``init(numericCode:)``, ``init(alpha2:)``,
/// ``init(alpha3:)`` or, for the EMV n3 encoding of tags 9F1A and 5F28, ``init(emvCode:)``.
public struct Country: Hashable, Sendable, CustomStringConvertible {
    /// The two-letter code, e.g. `DE`.
    public let alpha2: String
    /// The three-letter code, e.g. `DEU`.
    public let alpha3: String
    /// The three-digit code, e.g. 276.
    public let numericCode: Int
    /// The English short name, e.g. `Germany`.
    public let name: String

    init(alpha2: String, alpha3: String, numericCode: Int, name: String) {
        self.alpha2 = alpha2
        self.alpha3 = alpha3
        self.numericCode = numericCode
        self.name = name
    }

    private static let byNumericCode = Dictionary(uniqueKeysWithValues: allCases.map { ($0.numericCode, $0) })
    private static let byAlpha2 = Dictionary(uniqueKeysWithValues: allCases.map { ($0.alpha2, $0) })
    private static let byAlpha3 = Dictionary(uniqueKeysWithValues: allCases.map { ($0.alpha3, $0) })

    /// The country with this numeric code, e.g. 840; nil when ISO 3166-1 has none.
    public init?(numericCode: Int) {
        guard let country = Self.byNumericCode[numericCode] else { return nil }
        self = country
    }

    /// The country with this alpha-2 code, in either case, e.g. `US`.
    public init?(alpha2: some StringProtocol) {
        guard let country = Self.byAlpha2[alpha2.uppercased()] else { return nil }
        self = country
    }

    /// The country with this alpha-3 code, in either case, e.g. `USA`.
    public init?(alpha3: some StringProtocol) {
        guard let country = Self.byAlpha3[alpha3.uppercased()] else { return nil }
        self = country
    }

    /// Decodes an EMV country code: n3 in two bytes, e.g. `08 26` for the United Kingdom.
    ///
    /// - Throws: ``ValueError/Code/invalidLength``, ``ValueError/Code/invalidDigit`` or
    ///   ``ValueError/Code/unknownCountry``.
    public init(emvCode bytes: some Collection<UInt8>) throws {
        let code = try numericCodeField(bytes, what: "country code")
        guard let country = Country(numericCode: code) else {
            throw ValueError(code: .unknownCountry, message: "no ISO 3166-1 country has code \(code)")
        }
        self = country
    }

    /// The EMV n3 encoding in two bytes, e.g. `02 76` for Germany.
    public var emvCode: [UInt8] { BCD.numeric(numericCode, byteCount: 2) }

    /// The alpha-2 code.
    public var description: String { alpha2 }
}
