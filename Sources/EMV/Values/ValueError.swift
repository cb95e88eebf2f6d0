/// An error from decoding or building a typed EMV value: amounts, currencies, countries, PANs, track 2, dates,
/// bit-field data elements and CVM lists.
///
/// Equality and hashing compare ``code`` only, so tests can write `#expect(throws: ValueError.luhnCheckFailed)`.
/// Messages give lengths and positions, never the digits of a PAN, track 2 or PIN (DESIGN.md security rules).
public struct ValueError: CodedError {
    /// What was wrong, independent of where it happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidLength
            case invalidDigit
            case invalidPadding
            case amountOutOfRange
            case tooManyFractionDigits
            case luhnCheckFailed
            case missingSeparator
            case invalidDate
            case unknownCurrency
            case unknownCountry
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The wrong number of bytes or digits for the data element.
        public static let invalidLength = Code(.invalidLength)
        /// A nibble or character that is not a decimal digit where the format requires one.
        public static let invalidDigit = Code(.invalidDigit)
        /// F padding followed by a digit, or an F where the format allows no padding (track 2 pads one nibble).
        public static let invalidPadding = Code(.invalidPadding)
        /// An amount that is negative or too large for its encoding (n12 holds at most 999,999,999,999).
        public static let amountOutOfRange = Code(.amountOutOfRange)
        /// A decimal amount with more fraction digits than its currency's minor unit exponent.
        public static let tooManyFractionDigits = Code(.tooManyFractionDigits)
        /// A PAN whose last digit is not its Luhn check digit (ISO/IEC 7812-1).
        public static let luhnCheckFailed = Code(.luhnCheckFailed)
        /// Track 2 equivalent data without the `D` field separator.
        public static let missingSeparator = Code(.missingSeparator)
        /// A month or day that does not exist, or a year outside what the format can hold.
        public static let invalidDate = Code(.invalidDate)
        /// A currency code that is not in the ISO 4217 table.
        public static let unknownCurrency = Code(.unknownCurrency)
        /// A country code that is not in the ISO 3166-1 table.
        public static let unknownCountry = Code(.unknownCountry)

        /// The code's name, as in `ValueError.Code.invalidDigit`.
        public var description: String { base.rawValue }
    }

    /// What was wrong.
    public let code: Code
    /// Byte offset (or character offset, for text input) of the problem; nil when it is not about a position.
    public let offset: Int?
    /// A human explanation, free of card data.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(code: Code, offset: Int? = nil, message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.offset = offset
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> ValueError { ValueError(code: code, message: "any \(code) error") }

    /// Matches any ``Code/invalidLength`` error.
    public static let invalidLength = pattern(.invalidLength)
    /// Matches any ``Code/invalidDigit`` error.
    public static let invalidDigit = pattern(.invalidDigit)
    /// Matches any ``Code/invalidPadding`` error.
    public static let invalidPadding = pattern(.invalidPadding)
    /// Matches any ``Code/amountOutOfRange`` error.
    public static let amountOutOfRange = pattern(.amountOutOfRange)
    /// Matches any ``Code/tooManyFractionDigits`` error.
    public static let tooManyFractionDigits = pattern(.tooManyFractionDigits)
    /// Matches any ``Code/luhnCheckFailed`` error.
    public static let luhnCheckFailed = pattern(.luhnCheckFailed)
    /// Matches any ``Code/missingSeparator`` error.
    public static let missingSeparator = pattern(.missingSeparator)
    /// Matches any ``Code/invalidDate`` error.
    public static let invalidDate = pattern(.invalidDate)
    /// Matches any ``Code/unknownCurrency`` error.
    public static let unknownCurrency = pattern(.unknownCurrency)
    /// Matches any ``Code/unknownCountry`` error.
    public static let unknownCountry = pattern(.unknownCountry)
}

extension ValueError: RelocatableError {
    /// The same error with its offset moved by `distance` bytes.
    func relocated(by distance: Int) -> any Error {
        ValueError(code: code, offset: offset.map { $0 + distance }, message: message, file: file, line: line)
    }
}
