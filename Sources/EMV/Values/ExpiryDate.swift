/// A card expiry month as `YYMM` (track 2 and its EMV equivalent, tag 57; ISO 8583 field 14), valid through
/// the last day of the month.
public struct ExpiryDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The four-digit year, 1950...2049 by EMV's century rule.
    public let year: Int
    /// The month, 1...12.
    public let month: Int

    /// Creates an expiry month.
    ///
    /// - Throws: ``ValueError/Code/invalidDate`` for a month outside 1...12 or a year outside 1950...2049.
    public init(year: Int, month: Int) throws {
        guard EMVDate.representableYears.contains(year), (1...12).contains(month) else {
            throw ValueError(code: .invalidDate, message: "expiry \(year)-\(month) is not a valid month")
        }
        self.year = year
        self.month = month
    }

    /// Decodes n4 `YYMM` in two bytes.
    ///
    /// - Throws: ``ValueError/Code/invalidLength``, ``ValueError/Code/invalidDigit`` or
    ///   ``ValueError/Code/invalidDate``.
    public init(n4 bytes: some Collection<UInt8>) throws {
        guard bytes.count == 2 else {
            throw ValueError(code: .invalidLength, offset: 0, message: "an n4 expiry has 2 bytes, got \(bytes.count)")
        }
        try self.init(yymmDigits: BCD.numericDigits(bytes, what: "expiry date"))
    }

    /// From the four digit values Y Y M M.
    init(yymmDigits d: [UInt8]) throws {
        try self.init(
            year: EMVDate.year(fromTwoDigits: Int(d[0]) * 10 + Int(d[1])), month: Int(d[2]) * 10 + Int(d[3]))
    }

    /// The n4 encoding `YYMM`.
    public var n4: [UInt8] { BCD.numeric((year % 100) * 100 + month, byteCount: 2) }

    /// The digits `YYMM` as text, e.g. `2212`.
    public var yymm: String { BCD.text(yymmDigits) }

    var yymmDigits: [UInt8] {
        let yy = year % 100
        return [UInt8(yy / 10), UInt8(yy % 10), UInt8(month / 10), UInt8(month % 10)]
    }

    /// The last day the card is valid.
    public var lastDay: EMVDate {
        // Valid by construction: year and month were checked in init.
        EMVDate(validatedYear: year, month: month, day: EMVDate.daysInMonth(year: year, month: month))
    }

    /// Whether the card has expired on `date`, i.e. `date` is after the last day of the expiry month.
    public func isExpired(on date: EMVDate) -> Bool { date > lastDay }

    /// Chronological order.
    public static func < (lhs: ExpiryDate, rhs: ExpiryDate) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }

    /// `2022-12`.
    public var description: String { "\(year)-\(month < 10 ? "0" : "")\(month)" }
}
