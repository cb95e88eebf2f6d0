/// How one ISO 8583 field is laid out: pyiso8583's per-field dictionary (`data_enc`, `len_enc`, `len_type`,
/// `max_len`, `len_count`, `left_pad`, `right_pad`) as a value, plus whether the field is numeric.
///
/// ```swift
/// let pan = FieldSpecification.variable("Primary Account Number (PAN)", prefixBytes: 2, maximumLength: 19,
///                                       content: .numeric)
/// ```
public struct FieldSpecification: Sendable, Hashable {
    /// How a field's data or a bitmap or message type is encoded.
    public enum DataEncoding: String, Sendable, Hashable, CaseIterable {
        /// ASCII text (pyiso8583 `ascii`); bytes over 0x7F are rejected.
        case ascii
        /// EBCDIC text, code page 500 (pyiso8583 `cp500`).
        case ebcdic = "cp500"
        /// Raw bytes (pyiso8583 `b`); with ``LengthUnit/nibbles`` the value is hex digits packed two to a byte.
        case binary = "b"
    }

    /// How a variable field's length prefix is encoded.
    public enum LengthEncoding: String, Sendable, Hashable, CaseIterable {
        /// Decimal digits in ASCII, one per prefix byte.
        case ascii
        /// Decimal digits in EBCDIC (code page 500), one per prefix byte.
        case ebcdic = "cp500"
        /// Decimal digits packed two to a byte.
        case bcd
        /// An unsigned big-endian binary number.
        case binary = "b"
    }

    /// What a field's length counts.
    public enum LengthUnit: String, Sendable, Hashable, CaseIterable {
        /// Bytes of field data.
        case bytes
        /// Hex digits (half bytes) of a ``DataEncoding/binary`` field, as for BCD account numbers.
        case nibbles
    }

    /// What characters a field may hold; pyiso8583 does not check this, so its specs have no equivalent.
    public enum Content: String, Sendable, Hashable, CaseIterable {
        /// Any character of the encoding (ISO 8583 `an`, `ans`, `b`, `z`).
        case any
        /// Decimal digits only (ISO 8583 `n`).
        case numeric
    }

    /// The field's name, for documentation and error messages (pyiso8583 `desc`).
    public var name: String
    /// How the data is encoded (pyiso8583 `data_enc`).
    public var dataEncoding: DataEncoding
    /// Bytes of length prefix: 0 for a fixed field, 2 for an ASCII LLVAR, 3 for LLLVAR, 1 for a BCD LLVAR
    /// (pyiso8583 `len_type`).
    public var lengthPrefixBytes: Int
    /// How the length prefix is encoded (pyiso8583 `len_enc`); ignored for fixed fields.
    public var lengthEncoding: LengthEncoding
    /// The length of a fixed field, or the longest a variable field may be, in ``lengthUnit`` (pyiso8583 `max_len`).
    public var maximumLength: Int
    /// What lengths count (pyiso8583 `len_count`).
    public var lengthUnit: LengthUnit
    /// The nibble (0-15) that pads an odd-length packed value on the left (pyiso8583 `left_pad`).
    public var leftPad: UInt8?
    /// The nibble (0-15) that pads an odd-length packed value on the right (pyiso8583 `right_pad`).
    public var rightPad: UInt8?
    /// Which characters the value may hold.
    public var content: Content

    /// Creates a field specification from pyiso8583's attributes.
    public init(
        name: String, dataEncoding: DataEncoding, lengthPrefixBytes: Int, lengthEncoding: LengthEncoding = .ascii,
        maximumLength: Int, lengthUnit: LengthUnit = .bytes, leftPad: UInt8? = nil, rightPad: UInt8? = nil,
        content: Content = .any
    ) {
        self.name = name
        self.dataEncoding = dataEncoding
        self.lengthPrefixBytes = lengthPrefixBytes
        self.lengthEncoding = lengthEncoding
        self.maximumLength = maximumLength
        self.lengthUnit = lengthUnit
        self.leftPad = leftPad
        self.rightPad = rightPad
        self.content = content
    }

    /// A fixed-length field.
    public static func fixed(
        _ name: String, length: Int, encoding: DataEncoding = .ascii, content: Content = .any
    ) -> FieldSpecification {
        FieldSpecification(
            name: name, dataEncoding: encoding, lengthPrefixBytes: 0, maximumLength: length, content: content)
    }

    /// A variable-length field: `prefixBytes` 2 is LLVAR, 3 LLLVAR, 4 LLLLVAR for text length prefixes.
    public static func variable(
        _ name: String, prefixBytes: Int, lengthEncoding: LengthEncoding = .ascii, maximumLength: Int,
        encoding: DataEncoding = .ascii, content: Content = .any
    ) -> FieldSpecification {
        FieldSpecification(
            name: name, dataEncoding: encoding, lengthPrefixBytes: prefixBytes, lengthEncoding: lengthEncoding,
            maximumLength: maximumLength, content: content)
    }

    /// Whether the field has a length prefix.
    public var isVariable: Bool { lengthPrefixBytes > 0 }

    /// The largest length the prefix can express (more prefix bytes than an `Int` holds count as unlimited).
    var prefixCapacity: Int {
        let digits: Int
        switch lengthEncoding {
        case .ascii, .ebcdic: digits = lengthPrefixBytes
        case .bcd: digits = lengthPrefixBytes * 2
        case .binary:
            return lengthPrefixBytes >= 7 ? Int.max : (1 << (8 * lengthPrefixBytes)) - 1
        }
        if digits >= 18 { return Int.max }
        var capacity = 1
        for _ in 0..<digits { capacity *= 10 }
        return capacity - 1
    }
}
