/// The format of a data element's value, as EMV Book 3 section 4.3 defines them.
///
/// The format decides how a value is shown and how a data object list pads or truncates it.
public enum DataFormat: Hashable, Sendable, CustomStringConvertible {
    /// `a`: alphabetic (a–z, A–Z), one character per byte.
    case alphabetic
    /// `an`: alphanumeric, one character per byte.
    case alphanumeric
    /// `ans`: alphanumeric and special characters (ISO/IEC 8859 common character set), one per byte.
    case alphanumericSpecial
    /// `b`: binary.
    case binary
    /// `cn`: compressed numeric: BCD digits left-justified, padded on the right with `F` nibbles.
    case compressedNumeric
    /// `n`: numeric: BCD digits right-justified, padded on the left with zero nibbles.
    case numeric
    /// `var.`: a structure of its own (templates, the AFL, track data).
    case variable

    /// The specification's abbreviation: `a`, `an`, `ans`, `b`, `cn`, `n`, `var`.
    public var description: String {
        switch self {
        case .alphabetic: "a"
        case .alphanumeric: "an"
        case .alphanumericSpecial: "ans"
        case .binary: "b"
        case .compressedNumeric: "cn"
        case .numeric: "n"
        case .variable: "var"
        }
    }

    /// Whether values are text (`a`, `an`, `ans`).
    public var isText: Bool {
        self == .alphabetic || self == .alphanumeric || self == .alphanumericSpecial
    }
}
