import Foundation

/// An exact amount of money: an integer count of a currency's minor units (cents for EUR, yen for JPY,
/// fils for BHD). Never floating point.
///
/// EMV carries amounts as n12 (Amount, Authorised 9F02; Amount, Other 9F03): twelve BCD digits in six bytes,
/// in minor units, with the exponent given separately by the currency (5F36).
public struct Amount: Hashable, Sendable, CustomStringConvertible {
    /// The largest value an n12 field holds.
    public static let maximumN12 = 999_999_999_999

    /// The amount in minor units; negative for credits.
    public let minorUnits: Int
    /// The currency, whose exponent places the decimal point.
    public let currency: Currency

    /// Creates an amount from minor units, e.g. `Amount(minorUnits: 1234, currency: .eur)` for 12.34 EUR.
    public init(minorUnits: Int, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Creates an amount from a decimal value in major units, e.g. `Amount(Decimal(string: "12.34")!, currency: .eur)`.
    ///
    /// - Throws: ``ValueError/Code/tooManyFractionDigits`` when the value has more fraction digits than the
    ///   currency's exponent (12.345 EUR), ``ValueError/Code/amountOutOfRange`` when it is NaN or too large.
    public init(_ value: Decimal, currency: Currency) throws {
        guard !value.isNaN else {
            throw ValueError(code: .amountOutOfRange, message: "the amount is not a number")
        }
        var scaled = value * Decimal(sign: .plus, exponent: currency.exponent, significand: 1)
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .plain)
        guard whole == scaled else {
            throw ValueError(
                code: .tooManyFractionDigits,
                message: "\(currency.alphabeticCode) has \(currency.exponent) fraction digits; the amount has more")
        }
        guard let units = Int(whole.description) else {
            throw ValueError(code: .amountOutOfRange, message: "the amount does not fit 64-bit minor units")
        }
        self.init(minorUnits: units, currency: currency)
    }

    /// Decodes an n12 amount: six bytes of BCD, in the currency's minor units.
    ///
    /// - Throws: ``ValueError/Code/invalidLength`` for a length other than 6, ``ValueError/Code/invalidDigit``
    ///   (with the byte offset) for a nibble above 9.
    public init(n12 bytes: some Collection<UInt8>, currency: Currency) throws {
        guard bytes.count == 6 else {
            throw ValueError(code: .invalidLength, offset: 0, message: "an n12 amount has 6 bytes, got \(bytes.count)")
        }
        let digits = try BCD.numericDigits(bytes, what: "n12 amount")
        self.init(minorUnits: BCD.integer(digits), currency: currency)
    }

    /// The n12 encoding, e.g. `00 00 00 00 12 34` for 12.34 EUR.
    ///
    /// - Throws: ``ValueError/Code/amountOutOfRange`` for negative amounts or more than 999,999,999,999 minor
    ///   units.
    public func n12() throws -> [UInt8] {
        guard (0...Self.maximumN12).contains(minorUnits) else {
            throw ValueError(
                code: .amountOutOfRange, message: "n12 holds 0...\(Self.maximumN12) minor units, not \(minorUnits)")
        }
        return BCD.numeric(minorUnits, byteCount: 6)
    }

    /// The value in major units, exactly: 1234 minor units of EUR is 12.34.
    public var decimalValue: Decimal {
        Decimal(
            sign: minorUnits < 0 ? .minus : .plus, exponent: -currency.exponent,
            significand: Decimal(minorUnits.magnitude))
    }

    /// The amount with all of its currency's fraction digits and the alphabetic code: `12.34 EUR`,
    /// `1234 JPY`, `1.234 BHD`, `-0.05 USD`.
    public var formatted: String {
        let digits = String(minorUnits.magnitude)
        let exponent = currency.exponent
        let padded = String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + digits
        let sign = minorUnits < 0 ? "-" : ""
        guard exponent > 0 else { return "\(sign)\(padded) \(currency.alphabeticCode)" }
        let split = padded.index(padded.endIndex, offsetBy: -exponent)
        return "\(sign)\(padded[..<split]).\(padded[split...]) \(currency.alphabeticCode)"
    }

    /// The same as ``formatted``.
    public var description: String { formatted }
}
