import Foundation

/// The month a certificate expires after, coded MMYY in BCD inside issuer and ICC public key certificates.
public struct CertificateExpiration: Hashable, Sendable, CustomStringConvertible {
    /// Month, 1...12.
    public let month: Int
    /// Four-digit year: YY 00...49 is 20YY, 50...99 is 19YY (EMV Book 4, 6.7.3).
    public let year: Int

    /// Creates an expiration from a month and a four-digit year in 1950...2049.
    ///
    /// - Throws: ``ODAError/invalidInput`` for an out-of-range month or year.
    public init(month: Int, year: Int) throws {
        guard (1...12).contains(month), (1950...2049).contains(year) else {
            throw ODAError(.invalidInput, "expiration month \(month) year \(year) out of range")
        }
        self.month = month
        self.year = year
    }

    /// Decodes the two BCD bytes MMYY; nil when they are not a valid month and year.
    public init?(mmyy bytes: some Collection<UInt8>) {
        guard bytes.count == 2, let mm = Self.bcd(bytes.first), let yy = Self.bcd(bytes.dropFirst().first),
            (1...12).contains(mm)
        else { return nil }
        self.month = mm
        self.year = yy < 50 ? 2000 + yy : 1900 + yy
    }

    /// The two BCD bytes MMYY.
    public var mmyy: [UInt8] {
        let yy = year % 100
        return [UInt8((month / 10) << 4 | month % 10), UInt8((yy / 10) << 4 | yy % 10)]
    }

    /// Whether `date` (at UTC) falls after the last day of the expiration month (EMV Book 2, 5.3 step 9).
    public func isExpired(on date: Date) -> Bool {
        let today = CalendarDay(date)
        return (today.year, today.month) > (year, month)
    }

    /// `MM/YYYY`.
    public var description: String { (month < 10 ? "0" : "") + "\(month)/\(year)" }

    private static func bcd(_ byte: UInt8?) -> Int? {
        guard let byte, byte >> 4 <= 9, byte & 0x0F <= 9 else { return nil }
        return Int(byte >> 4) * 10 + Int(byte & 0x0F)
    }
}
