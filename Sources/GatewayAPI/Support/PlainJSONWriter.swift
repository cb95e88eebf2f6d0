import EMV
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
        let time = CivilTime(date)
        var text = [UInt8]()
        text.reserveCapacity(20)
        let parts: [(value: Int, width: Int, then: Unicode.Scalar)] = [
            (time.year, 4, "-"), (time.month, 2, "-"), (time.day, 2, "T"), (time.hour, 2, ":"), (time.minute, 2, ":"),
            (time.second, 2, "Z"),
        ]
        for part in parts {
            var divisor = 1
            for _ in 1..<part.width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(part.value / divisor % 10))
                divisor /= 10
            }
            text.append(UInt8(ascii: part.then))
        }
        return String(decoding: text, as: UTF8.self)
    }
}
