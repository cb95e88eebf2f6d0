extension Specification: Codable {
    /// A key of pyiso8583's spec dictionary: `h`, `t`, `p`, or a field number.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { Int(stringValue) }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { stringValue = String(intValue) }
    }

    /// pyiso8583's per-field dictionary, plus `numeric` (ignored by pyiso8583).
    private struct Entry: Codable {
        var data_enc: String
        var len_enc: String
        var len_type: Int
        var max_len: Int
        var desc: String
        var len_count: String?
        var left_pad: String?
        var right_pad: String?
        var numeric: Bool?
    }

    /// Reads pyiso8583's spec dictionary as JSON. The name comes from an optional `name` key. Header (`h`) must have
    /// `max_len` 0; field 65 and fields over 128 are ignored (no tertiary bitmap).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func entry(_ key: String) throws -> Entry { try container.decode(Entry.self, forKey: Key(key)) }
        func fail(_ key: String, _ what: String) -> any Error {
            DecodingError.dataCorruptedError(forKey: Key(key), in: container, debugDescription: what)
        }
        func encoding(_ name: String, _ key: String) throws -> FieldSpecification.DataEncoding {
            guard let encoding = FieldSpecification.DataEncoding(rawValue: name) else {
                throw fail(key, "unknown data encoding \(name)")
            }
            return encoding
        }
        if container.contains(Key("h")), try entry("h").max_len > 0 { throw fail("h", "headers are not supported") }
        let name = try container.decodeIfPresent(String.self, forKey: Key("name")) ?? "custom"
        let secondary = container.contains(Key("1")) ? try encoding(entry("1").data_enc, "1") : nil
        var fields: [Int: FieldSpecification] = [:]
        for key in container.allKeys {
            guard let number = key.intValue, (2...128).contains(number), number != 65 else { continue }
            let raw = try entry(key.stringValue)
            guard let lengthEncoding = FieldSpecification.LengthEncoding(rawValue: raw.len_enc) else {
                throw fail(key.stringValue, "unknown length encoding \(raw.len_enc)")
            }
            guard let unit = FieldSpecification.LengthUnit(rawValue: raw.len_count ?? "bytes") else {
                throw fail(key.stringValue, "unknown len_count")
            }
            guard raw.len_type >= 0, raw.max_len >= 0 else { throw fail(key.stringValue, "negative length") }
            fields[number] = FieldSpecification(
                name: raw.desc, dataEncoding: try encoding(raw.data_enc, key.stringValue),
                lengthPrefixBytes: raw.len_type, lengthEncoding: lengthEncoding, maximumLength: raw.max_len,
                lengthUnit: unit, leftPad: raw.left_pad.flatMap(Self.padNibble),
                rightPad: raw.right_pad.flatMap(Self.padNibble), content: raw.numeric == true ? .numeric : .any)
        }
        self.init(
            name: name, messageTypeEncoding: try encoding(entry("t").data_enc, "t"),
            primaryBitmapEncoding: try encoding(entry("p").data_enc, "p"), secondaryBitmapEncoding: secondary,
            fields: fields)
    }

    /// Writes pyiso8583's spec dictionary (with `numeric` marks and a `name`), loadable by `iso8583.encode/decode`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        func fixed(_ encoding: FieldSpecification.DataEncoding, _ length: Int, _ desc: String) -> Entry {
            Entry(data_enc: encoding.rawValue, len_enc: "ascii", len_type: 0, max_len: length, desc: desc)
        }
        try container.encode(name, forKey: Key("name"))
        try container.encode(fixed(.ascii, 0, "Message Header"), forKey: Key("h"))
        try container.encode(
            fixed(messageTypeEncoding, messageTypeEncoding == .binary ? 2 : 4, "Message Type"), forKey: Key("t"))
        try container.encode(
            fixed(primaryBitmapEncoding, primaryBitmapEncoding == .binary ? 8 : 16, "Bitmap, Primary"),
            forKey: Key("p"))
        if let secondary = secondaryBitmapEncoding {
            try container.encode(
                fixed(secondary, secondary == .binary ? 8 : 16, "Bitmap, Secondary"), forKey: Key("1"))
        }
        let hex = Array("0123456789ABCDEF")
        for number in fieldNumbers {
            guard let layout = layouts[number] else { continue }
            try container.encode(
                Entry(
                    data_enc: layout.dataEncoding.rawValue, len_enc: layout.lengthEncoding.rawValue,
                    len_type: layout.lengthPrefixBytes, max_len: layout.maximumLength, desc: layout.name,
                    len_count: layout.lengthUnit.rawValue, left_pad: layout.leftPad.map { String(hex[Int($0 & 0xF)]) },
                    right_pad: layout.rightPad.map { String(hex[Int($0 & 0xF)]) },
                    numeric: layout.content == .numeric),
                forKey: Key(String(number)))
        }
    }

    private static func padNibble(_ text: String) -> UInt8? {
        text.utf8.first.flatMap(ISO8583Message.hexValue)
    }
}
