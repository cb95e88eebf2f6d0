/// An ISO 8583 dialect as data: the message type, bitmap and per-field layouts, modelled on pyiso8583 4.0.1's spec
/// dictionaries so the same specification encodes and decodes byte for byte as pyiso8583 does.
///
/// Ships pyiso8583's ``default`` and ``defaultASCII`` and the project's ``contactless``. `Codable` reads and writes
/// pyiso8583's dictionary layout (keys `t`, `p`, `1`, `2`…`128`), so a spec can be exchanged with Python as JSON.
public struct Specification: Sendable, Hashable {
    /// A short name for logs and the command line, e.g. `default_ascii`.
    public var name: String
    /// How the four-digit message type indicator is encoded: text (4 bytes) or ``FieldSpecification/DataEncoding/binary``
    /// (2 bytes of BCD).
    public var messageTypeEncoding: FieldSpecification.DataEncoding
    /// How the primary bitmap is encoded: 8 raw bytes (binary) or 16 hex digits in ASCII or EBCDIC.
    public var primaryBitmapEncoding: FieldSpecification.DataEncoding
    /// How the secondary bitmap (field 1) is encoded; nil for a dialect with fields 2...64 only, where bit 1 is an error.
    public var secondaryBitmapEncoding: FieldSpecification.DataEncoding?
    /// Layouts indexed by field number 0...128; 0 and 1 are always nil (the bitmaps are described above).
    private(set) var layouts: [FieldSpecification?]

    /// Creates a specification from field layouts keyed by field number 2...128 (other numbers are ignored).
    public init(
        name: String, messageTypeEncoding: FieldSpecification.DataEncoding,
        primaryBitmapEncoding: FieldSpecification.DataEncoding,
        secondaryBitmapEncoding: FieldSpecification.DataEncoding?, fields: [Int: FieldSpecification]
    ) {
        self.name = name
        self.messageTypeEncoding = messageTypeEncoding
        self.primaryBitmapEncoding = primaryBitmapEncoding
        self.secondaryBitmapEncoding = secondaryBitmapEncoding
        var layouts = [FieldSpecification?](repeating: nil, count: 129)
        for (number, layout) in fields where (2...128).contains(number) { layouts[number] = layout }
        self.layouts = layouts
    }

    /// The layout of field `number` (2...128); nil when the dialect does not define it. Setting a number outside
    /// 2...128 does nothing: field 1 is the secondary bitmap.
    public subscript(field number: Int) -> FieldSpecification? {
        get { (2...128).contains(number) ? layouts[number] : nil }
        set { if (2...128).contains(number) { layouts[number] = newValue } }
    }

    /// The numbers of the fields the dialect defines, ascending.
    public var fieldNumbers: [Int] { (2...128).filter { layouts[$0] != nil } }
}
