/// A primary account number (ISO/IEC 7812-1): 12 to 19 digits ending in a Luhn check digit.
///
/// A PAN never shows itself whole by accident: `description`, `debugDescription` and the reflection `dump`
/// uses all give the ``masked`` form (first six, last four), so string interpolation, `print`, logging and
/// error messages cannot leak it. Read ``digits`` or ``bcd`` explicitly where the full number is needed.
public struct PAN: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The lengths ISO/IEC 7812-1 allows.
    public static let validLengths = 12...19

    /// Digit values 0-9, for encoders in this module.
    let digitValues: [UInt8]

    /// Creates a PAN from decimal text.
    ///
    /// - Parameters:
    ///   - text: the digits, without separators.
    ///   - requireLuhn: reject a PAN whose check digit is wrong (the default).
    /// - Throws: ``ValueError/Code/invalidDigit`` (with the character offset), ``ValueError/Code/invalidLength``,
    ///   ``ValueError/Code/luhnCheckFailed``. Messages never include the digits.
    public init(_ text: some StringProtocol, requireLuhn: Bool = true) throws {
        try self.init(digitValues: BCD.digits(ofText: text, what: "PAN"), requireLuhn: requireLuhn)
    }

    /// Decodes the cn encoding of tag 5A: digits left-justified, padded with trailing F nibbles.
    ///
    /// - Throws: ``ValueError/Code/invalidDigit`` or ``ValueError/Code/invalidPadding`` with the byte offset,
    ///   ``ValueError/Code/invalidLength``, ``ValueError/Code/luhnCheckFailed``.
    public init(bcd bytes: some Collection<UInt8>, requireLuhn: Bool = true) throws {
        try self.init(digitValues: BCD.compressedNumericDigits(bytes, what: "PAN"), requireLuhn: requireLuhn)
    }

    init(digitValues: [UInt8], requireLuhn: Bool) throws {
        guard Self.validLengths.contains(digitValues.count) else {
            throw ValueError(
                code: .invalidLength, message: "a PAN has 12 to 19 digits, got \(digitValues.count)")
        }
        guard !requireLuhn || Self.luhnSum(digitValues) % 10 == 0 else {
            throw ValueError(code: .luhnCheckFailed, message: "the PAN's check digit is wrong")
        }
        self.digitValues = digitValues
    }

    /// The full number as decimal text. Handle with care: this is the one way to see it unmasked.
    public var digits: String { BCD.text(digitValues) }

    /// The cn encoding for tag 5A, F-padded to whole bytes.
    public var bcd: [UInt8] { BCD.pack(digitValues) }

    /// The number of digits.
    public var length: Int { digitValues.count }

    /// The first six digits: the issuer identification number (BIN), which may be shown.
    public var issuerIdentificationNumber: String { BCD.text(digitValues.prefix(6)) }

    /// The last four digits, which may be shown.
    public var lastFour: String { BCD.text(digitValues.suffix(4)) }

    /// First six and last four digits with `*` for each digit between: `476173******0119`.
    public var masked: String { SensitiveDataMask.maskedPAN(digits: digitValues) }

    /// Whether the last digit is the Luhn check digit of the others.
    public var isLuhnValid: Bool { Self.luhnSum(digitValues) % 10 == 0 }

    /// Whether decimal text passes the Luhn check (ISO/IEC 7812-1 annex B); false for non-digits or empty
    /// text.
    public static func isLuhnValid(_ text: some StringProtocol) -> Bool {
        guard let values = try? BCD.digits(ofText: text, what: "number"), !values.isEmpty else { return false }
        return luhnSum(values) % 10 == 0
    }

    /// The Luhn check digit to append to `payload`; nil for non-digits or empty text.
    public static func luhnCheckDigit(for payload: some StringProtocol) -> Int? {
        guard let values = try? BCD.digits(ofText: payload, what: "number"), !values.isEmpty else { return nil }
        return (10 - luhnSum(values + [0]) % 10) % 10
    }

    /// Luhn sum: from the right, every second digit doubled, digits of products added.
    private static func luhnSum(_ values: [UInt8]) -> Int {
        var sum = 0
        for (index, value) in values.reversed().enumerated() {
            let digit = Int(value)
            if index % 2 == 1 {
                sum += digit * 2 > 9 ? digit * 2 - 9 : digit * 2
            } else {
                sum += digit
            }
        }
        return sum
    }

    /// The masked form.
    public var description: String { masked }

    /// `PAN(476173******0119)`: masked as well.
    public var debugDescription: String { "PAN(\(masked))" }

    /// Reflection shows the masked form only, so `dump` cannot leak the number.
    public var customMirror: Mirror { Mirror(self, children: ["masked": masked], displayStyle: .struct) }
}
