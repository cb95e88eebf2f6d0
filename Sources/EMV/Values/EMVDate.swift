import Foundation

/// A calendar date as EMV encodes it: n6 `YYMMDD` (Transaction Date 9A, Application Expiration Date 5F24,
/// Application Effective Date 5F25).
///
/// Two-digit years follow EMV Book 4, 6.7.3's century rule: 00–49 are 2000–2049, 50–99 are 1950–1999, so
/// only those years are representable.
public struct EMVDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The years a two-digit EMV year can stand for.
    public static let representableYears = 1950...2049

    /// The four-digit year, 1950...2049.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...28/29/30/31.
    public let day: Int

    /// Creates a date, checking that it exists and is representable.
    ///
    /// - Throws: ``ValueError/Code/invalidDate``.
    public init(year: Int, month: Int, day: Int) throws {
        guard Self.representableYears.contains(year) else {
            throw ValueError(code: .invalidDate, message: "year \(year) is outside 1950...2049")
        }
        guard (1...12).contains(month) else {
            throw ValueError(code: .invalidDate, message: "month \(month) does not exist")
        }
        guard (1...Self.daysInMonth(year: year, month: month)).contains(day) else {
            throw ValueError(code: .invalidDate, message: "day \(day) does not exist in \(year)-\(month)")
        }
        self.init(validatedYear: year, month: month, day: day)
    }

    /// For callers that have already checked the date.
    init(validatedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Decodes n6 `YYMMDD` in three bytes.
    ///
    /// - Throws: ``ValueError/Code/invalidLength``, ``ValueError/Code/invalidDigit`` (with the byte offset)
    ///   or ``ValueError/Code/invalidDate``.
    public init(n6 bytes: some Collection<UInt8>) throws {
        guard bytes.count == 3 else {
            throw ValueError(code: .invalidLength, offset: 0, message: "an n6 date has 3 bytes, got \(bytes.count)")
        }
        let d = try BCD.numericDigits(bytes, what: "date")
        try self.init(
            year: Self.year(fromTwoDigits: Int(d[0]) * 10 + Int(d[1])), month: Int(d[2]) * 10 + Int(d[3]),
            day: Int(d[4]) * 10 + Int(d[5]))
    }

    /// The date's calendar day in `timeZone` (the terminal's local date for tag 9A).
    ///
    /// - Throws: ``ValueError/Code/invalidDate`` for dates outside 1950...2049.
    public init(_ date: Date, timeZone: TimeZone) throws {
        let time = CivilTime(date, in: timeZone)
        try self.init(year: time.year, month: time.month, day: time.day)
    }

    /// The n6 encoding `YYMMDD`, e.g. `25 12 31`.
    public var n6: [UInt8] { BCD.numeric((year % 100) * 10_000 + month * 100 + day, byteCount: 3) }

    /// EMV's century rule for a two-digit year (0...99): below 50 is 20YY, otherwise 19YY.
    public static func year(fromTwoDigits yy: Int) -> Int { yy < 50 ? 2000 + yy : 1900 + yy }

    /// Days in a month of the Gregorian calendar.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Chronological order.
    public static func < (lhs: EMVDate, rhs: EMVDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// ISO 8601 text, `2025-12-31`.
    public var description: String {
        "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
