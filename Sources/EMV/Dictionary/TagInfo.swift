/// What a data element is: one entry of an EMV data dictionary, for one kernel.
public struct TagInfo: Hashable, Sendable, CustomStringConvertible {
    /// How a pretty printer must hide a sensitive value.
    public enum Masking: Hashable, Sendable {
        /// Not sensitive: shown in full.
        case none
        /// A PAN: shown as BIN and last four digits at most (`476173******0119`).
        case pan
        /// Track 2 data: the PAN masked as ``pan``, everything after the separator hidden.
        case track2
        /// Track 1 data: the PAN masked as ``pan``, name and discretionary data hidden.
        case track1
        /// Hidden completely; only the length is shown (names, PIN data, discretionary data).
        case redacted
    }

    /// The tag.
    public let tag: Tag
    /// The specification's name, e.g. `Application Interchange Profile`.
    public let name: String
    /// The value's format.
    public let format: DataFormat
    /// Where the value comes from.
    public let source: DataSource
    /// The value length in bytes the specification allows, when it bounds it.
    public let length: ClosedRange<Int>?
    /// How printing hides the value; ``Masking/none`` for data that is not sensitive.
    public let masking: Masking
    /// Whether the value is a data object list (tags and lengths without values), like the PDOL.
    public let isDataObjectList: Bool
    /// The kernel whose data dictionary gives this meaning; ``Kernel/generic`` for tags common to all.
    public internal(set) var kernel: Kernel

    /// Creates a dictionary entry.
    public init(
        tag: Tag, name: String, format: DataFormat, source: DataSource, length: ClosedRange<Int>? = nil,
        masking: Masking = .none, isDataObjectList: Bool = false, kernel: Kernel = .generic
    ) {
        self.tag = tag
        self.name = name
        self.format = format
        self.source = source
        self.length = length
        self.masking = masking
        self.isDataObjectList = isDataObjectList
        self.kernel = kernel
    }

    /// Shorthand for the dictionary tables.
    init(
        _ tag: Tag, _ name: String, _ format: DataFormat, _ source: DataSource, _ length: ClosedRange<Int>? = nil,
        masking: Masking = .none, dol: Bool = false
    ) {
        self.init(
            tag: tag, name: name, format: format, source: source, length: length, masking: masking,
            isDataObjectList: dol)
    }

    /// Whether the data object is constructed (from the tag's b6).
    public var isConstructed: Bool { tag.isConstructed }

    /// Whether printing must hide the value.
    public var isSensitive: Bool { masking != .none }

    /// `<tag> <name> (<format>, <source>)`.
    public var description: String { "\(tag) \(name) (\(format), \(source))" }
}
