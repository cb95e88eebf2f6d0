import EMV

extension ISO8583Message: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The MTI and every field, with field 2 masked as BIN + last four and fields 34, 35, 36, 45, 48, 52 and 55
    /// redacted, e.g. `0100 {2: 476173******0119, 4: 000000001000, 35: <redacted 37>}`.
    public var description: String {
        "\(mti) {" + entries.map { "\($0.number): \(Self.displayed($0))" }.joined(separator: ", ") + "}"
    }

    /// The same as ``description``, so debug output never shows card data either.
    public var debugDescription: String { "ISO8583Message(\(description))" }

    /// The MTI and the fields as ``description`` shows them (masked), so `dump` and debuggers show no card data.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["mti": mti.description, "fields": entries.map { ($0.number, Self.displayed($0)) }],
            displayStyle: .struct)
    }

    /// A field's value as logs may show it.
    static func displayed(_ entry: Entry) -> String {
        if entry.number == ISO8583Field.pan.rawValue {
            return maskedPAN(entry.value)
        }
        if ISO8583Field.redacted.contains(entry.number) {
            return "<redacted \(entry.value.count)>"
        }
        switch entry.value {
        case .text(let text): return text
        case .binary(let bytes): return bytes.hexString
        }
    }

    /// BIN + last four of an all-digit PAN over ten digits; anything else fully hidden.
    private static func maskedPAN(_ value: ISO8583FieldValue) -> String {
        guard case .text(let text) = value else { return "<redacted \(value.count)>" }
        let digits = Array(text.utf8)
        guard digits.count > 10, digits.allSatisfy({ $0 &- 0x30 <= 9 }) else {
            return "<redacted \(digits.count)>"
        }
        let hidden = [UInt8](repeating: UInt8(ascii: "*"), count: digits.count - 10)
        return String(decoding: digits[..<6] + hidden + digits[(digits.count - 4)...], as: UTF8.self)
    }
}
