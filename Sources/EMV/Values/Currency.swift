/// An ISO 4217 currency: alphabetic and numeric code and the exponent of its minor unit.
///
/// Every currency of the current ISO 4217 list is a static member (`Currency.eur`, `Currency.jpy`, ...;
/// `Currency.allCases` lists them); look codes up with ``init(numericCode:)``, ``init(alphabeticCode:)`` or,
/// for the EMV n3 encoding of tags 5F2A, 9F42 and 5F36's companions, ``init(emvCode:)``.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The three-letter code, e.g. `EUR`.
    public let alphabeticCode: String
    /// The three-digit code, e.g. 978.
    public let numericCode: Int
    /// ISO's minor unit: digits after the decimal separator (EUR 2, JPY 0, BHD 3); nil where ISO says
    /// "N.A." (gold, SDR, the testing code XTS, ...).
    public let minorUnits: Int?
    /// ISO's English name, e.g. `Euro`.
    public let name: String

    init(alphabeticCode: String, numericCode: Int, minorUnits: Int?, name: String) {
        self.alphabeticCode = alphabeticCode
        self.numericCode = numericCode
        self.minorUnits = minorUnits
        self.name = name
    }

    /// The exponent amounts use: ``minorUnits``, or 0 for the currencies without one.
    public var exponent: Int { minorUnits ?? 0 }

    private static let byNumericCode = Dictionary(uniqueKeysWithValues: allCases.map { ($0.numericCode, $0) })
    private static let byAlphabeticCode = Dictionary(uniqueKeysWithValues: allCases.map { ($0.alphabeticCode, $0) })

    /// The currency with this numeric code, e.g. 978; nil when ISO 4217 has none.
    public init?(numericCode: Int) {
        guard let currency = Self.byNumericCode[numericCode] else { return nil }
        self = currency
    }

    /// The currency with this alphabetic code, in either case, e.g. `EUR`; nil when ISO 4217 has none.
    public init?(alphabeticCode: some StringProtocol) {
        guard let currency = Self.byAlphabeticCode[alphabeticCode.uppercased()] else { return nil }
        self = currency
    }

    /// Decodes an EMV currency code: n3 in two bytes, e.g. `09 78` for EUR.
    ///
    /// - Throws: ``ValueError/Code/invalidLength``, ``ValueError/Code/invalidDigit`` or
    ///   ``ValueError/Code/unknownCurrency``.
    public init(emvCode bytes: some Collection<UInt8>) throws {
        let code = try numericCodeField(bytes, what: "currency code")
        guard let currency = Currency(numericCode: code) else {
            throw ValueError(code: .unknownCurrency, message: "no ISO 4217 currency has code \(code)")
        }
        self = currency
    }

    /// The EMV n3 encoding in two bytes, e.g. `08 40` for USD.
    public var emvCode: [UInt8] { BCD.numeric(numericCode, byteCount: 2) }

    /// The alphabetic code.
    public var description: String { alphabeticCode }
}

/// Decodes a two-byte n3 code (currency or country) whose first nibble must be 0.
func numericCodeField(_ bytes: some Collection<UInt8>, what: String) throws -> Int {
    guard bytes.count == 2 else {
        throw ValueError(code: .invalidLength, offset: 0, message: "\(what) has 2 bytes, got \(bytes.count)")
    }
    let digits = try BCD.numericDigits(bytes, what: what)
    guard digits[0] == 0 else {
        throw ValueError(code: .invalidDigit, offset: 0, message: "\(what) is n3, so its first nibble is 0")
    }
    return BCD.integer(digits)
}
