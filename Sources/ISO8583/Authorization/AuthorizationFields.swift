import EMV
import Foundation

/// How the authorization messages carry each value, both ways: the one place that knows field 4 is twelve digits
/// of minor units, field 23 is the PAN sequence number behind a zero, field 35 is track 2 with `=` for `D`.
enum AuthorizationFields {
    /// `value` in decimal, left-padded with zeros to `width` (fields 4, 11, 49).
    static func digits(_ value: Int, width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.utf8.count)) + text
    }

    /// A non-negative decimal of 1 to 18 digits (fields 4, 11, 49); nil for anything else.
    static func number(_ text: some StringProtocol) -> Int? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    /// `text` right-padded with spaces to `width` (fields 41 and 42: ans fields are left-justified).
    static func padded(_ text: String, width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.utf8.count))
    }

    /// Field 23, n3: the PAN sequence number's two BCD digits behind a zero.
    static func field23(_ panSequenceNumber: UInt8) -> String { "0" + [panSequenceNumber].hexString }

    /// The PAN sequence number of field 23 (its last two digits, BCD as the card's 5F34); nil when not digits.
    static func panSequenceNumber(field23 text: String) -> UInt8? {
        guard text.utf8.count >= 2, let number = number(text.suffix(2)) else { return nil }
        return UInt8(number / 10) << 4 | UInt8(number % 10)
    }

    /// Field 14: the expiry as YYMM.
    static func expiry(field14 text: String) -> ExpiryDate? {
        guard let bytes = [UInt8](hex: text) else { return nil }
        return try? ExpiryDate(n4: bytes)
    }

    /// Track 2 as field 35 carries it: the digits with `=` for the separator, without the pad nibble.
    static func field35(_ track2: Track2EquivalentData) -> String {
        var text = Array(track2.bytes.hexString.utf8)
        while text.last == UInt8(ascii: "F") { text.removeLast() }
        return String(decoding: text.map { $0 == UInt8(ascii: "D") ? UInt8(ascii: "=") : $0 }, as: UTF8.self)
    }

    /// Field 35 read back: `=` is the separator `D`, and an odd count of digits gets the pad nibble `F`.
    static func track2(field35 text: String) -> Track2EquivalentData? {
        var hex = text.replacingOccurrences(of: "=", with: "D")
        if hex.utf8.count % 2 == 1 { hex += "F" }
        guard let bytes = [UInt8](hex: hex) else { return nil }
        return try? Track2EquivalentData(bytes: bytes)
    }

    /// `date` as `format` (`MMddHHmmss` for field 7, `HHmmss` for field 12) in `timeZone`, with the Gregorian
    /// calendar whatever the locale.
    static func timestamp(_ date: Date, _ format: String, in timeZone: TimeZone) -> String {
        let time = CivilTime(date, in: timeZone)
        var text = ""
        var index = format.startIndex
        while index < format.endIndex {
            let value =
                switch format[index] {
                case "M": time.month
                case "d": time.day
                case "H": time.hour
                case "m": time.minute
                case "s": time.second
                default: 0
                }
            text += digits(value, width: 2)
            index = format.index(index, offsetBy: 2, limitedBy: format.endIndex) ?? format.endIndex
        }
        return text
    }

    static let utc = TimeZone(identifier: "UTC") ?? .current
}
