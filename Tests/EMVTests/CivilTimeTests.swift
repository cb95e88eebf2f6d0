import EMV
import Foundation
import Testing

/// CivilTime's arithmetic against Foundation's Gregorian calendar, which it replaces on the payment path.
@Suite struct CivilTimeTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "America/St_Johns", "Asia/Kathmandu", "Pacific/Kiritimati",
        "Pacific/Pago_Pago", "Australia/Lord_Howe",
    ]

    @Test(arguments: zones)
    func agreesWithCalendar(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var random = SystemRandomNumberGenerator()
        // Around the epoch, leap days and DST changes, and random moments from 1600 to 2400 (with fractions).
        var moments: [Double] = [0, -0.5, 0.999, -86_400, 951_782_400, 951_868_799.999, 4_107_542_399, 1_795_003_600]
        for _ in 0..<5_000 {
            moments.append(Double.random(in: -11_676_096_000...13_569_465_600, using: &random))
        }
        for seconds in moments {
            let date = Date(timeIntervalSince1970: seconds)
            let time = CivilTime(date, in: timeZone)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second]
            #expect(
                [time.year, time.month, time.day, time.hour, time.minute, time.second] == expected.map { $0 ?? -1 },
                "\(seconds) in \(zone)")
            #expect(time.dayOfYear == calendar.ordinality(of: .day, in: .year, for: date), "\(seconds) in \(zone)")
        }
    }

    @Test func emvDateFollowsTheZone() throws {
        let date = Date(timeIntervalSince1970: 1_795_046_400 - 1)  // 2026-11-18 23:59:59 UTC
        #expect(try EMVDate(date, timeZone: #require(TimeZone(identifier: "UTC"))).n6 == [0x26, 0x11, 0x18])
        #expect(try EMVDate(date, timeZone: #require(TimeZone(identifier: "Europe/Berlin"))).n6 == [0x26, 0x11, 0x19])
    }
}
