import Foundation

/// Writes JSON objects whose members the caller gives in sorted order; gives up (``data`` nil) on a string that
/// would need escaping or a date it does not write as `JSONEncoder`'s `.iso8601` would.
struct PlainJSONWriter {
    private var bytes: [UInt8] = []
    private var plain = true
    /// Whether the object being written has no member yet.
    private var empty = true

    init() { bytes.reserveCapacity(768) }

    var data: Data? { plain ? Data(bytes) : nil }

    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        empty = true
    }

    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        empty = false
    }

    /// A member whose value is an object with the members `write` writes.
    mutating func object(_ name: StaticString, _ write: (inout PlainJSONWriter) -> Void) {
        key(name)
        open()
        write(&self)
        close()
    }

    mutating func key(_ name: StaticString) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func member(_ name: StaticString, _ value: Date) {
        key(name)
        guard let text = Self.iso8601(value) else {
            plain = false
            return
        }
        string(text)
    }

    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            // Printable ASCII but the quote and the backslash goes as it is; anything else JSONEncoder escapes or
            // may treat its own way.
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else {
                plain = false
                return
            }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` of the date's whole second (rounded down, as `.iso8601` writes it), for dates from
    /// 1970 to 9999.
    static func iso8601(_ date: Date) -> String? {
        let interval = date.timeIntervalSince1970
        guard interval >= 0, interval < 253_402_300_800 else { return nil }
        let seconds = Int(interval.rounded(.down))
        let days = seconds / 86_400
        let time = seconds % 86_400
        // Civil date from days since 1970-01-01 (H. Hinnant, "chrono-compatible low-level date algorithms").
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text = [UInt8]()
        text.reserveCapacity(20)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(UInt8(ascii: "-"))
        digits(month, 2)
        text.append(UInt8(ascii: "-"))
        digits(day, 2)
        text.append(UInt8(ascii: "T"))
        digits(time / 3_600, 2)
        text.append(UInt8(ascii: ":"))
        digits(time / 60 % 60, 2)
        text.append(UInt8(ascii: ":"))
        digits(time % 60, 2)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }
}
