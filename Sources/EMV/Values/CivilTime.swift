public import Foundation

/// A moment's Gregorian date and time of day at a fixed offset from UTC, by arithmetic.
///
/// Foundation's `Calendar` costs microseconds a call, and an authorization builds several timestamps (ISO 8583
/// fields 7 and 12, the RRN, the terminal date); the proleptic Gregorian calendar needs only integer arithmetic
/// (H. Hinnant's days-from-civil algorithms, exact for every year Int can hold).
public struct CivilTime: Sendable, Hashable {
    public let year: Int
    /// 1...12.
    public let month: Int
    /// 1...31.
    public let day: Int
    /// 1...366.
    public let dayOfYear: Int
    public let hour: Int
    public let minute: Int
    /// The whole second, rounded down (so 23:59:59.999 is 23:59:59).
    public let second: Int

    /// `date` in `timeZone` (its offset from UTC at that moment, daylight saving included).
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(date, secondsFromUTC: timeZone.secondsFromGMT(for: date))
    }

    /// `date` at `secondsFromUTC` (0 for UTC).
    public init(_ date: Date, secondsFromUTC: Int = 0) {
        let seconds = Int((date.timeIntervalSince1970 + Double(secondsFromUTC)).rounded(.down))
        var days = seconds / 86_400
        var time = seconds % 86_400
        if time < 0 {
            time += 86_400
            days -= 1
        }
        // Days since 1970-01-01 to year, month, day (Hinnant, "chrono-compatible low-level date algorithms").
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfMarchYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfMarchYear + 2) / 153
        day = dayOfMarchYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let daysBeforeMonth = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][month - 1]
        dayOfYear = daysBeforeMonth + day + (leap && month > 2 ? 1 : 0)
        hour = time / 3_600
        minute = time / 60 % 60
        second = time % 60
    }
}
