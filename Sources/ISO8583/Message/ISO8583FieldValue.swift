import EMV

/// The value of one ISO 8583 field: text for ASCII/EBCDIC fields and packed (nibble-counted) fields, bytes for binary
/// fields.
///
/// Matching pyiso8583, a binary field also accepts ``text(_:)`` holding hex digits; decoding gives ``binary(_:)``.
public enum ISO8583FieldValue: Hashable, Sendable, ExpressibleByStringLiteral {
    /// Characters of a text field, or the hex digits of a packed (BCD) field without its pad nibble.
    case text(String)
    /// The bytes of a binary field.
    case binary([UInt8])

    /// Creates a text value.
    public init(stringLiteral value: String) { self = .text(value) }

    /// The text, for a ``text(_:)`` value.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The bytes of a ``binary(_:)`` value, or of a ``text(_:)`` value holding an even number of hex digits.
    public var bytes: [UInt8]? {
        switch self {
        case .binary(let bytes): bytes
        case .text(let text): [UInt8](hex: text)
        }
    }

    /// How many bytes (binary) or characters (text) the value holds, for redacted descriptions.
    var count: Int {
        switch self {
        case .binary(let bytes): bytes.count
        case .text(let text): text.utf8.count
        }
    }
}
