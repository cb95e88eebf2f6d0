/// A value bound to a statement or read from a row: the few types every table here uses, the same on SQLite and
/// PostgreSQL.
///
/// Times are stored as integer milliseconds since 1970 and booleans as 0/1 integers, so one schema and one set of
/// statements serve both databases.
public enum SQLValue: Sendable, Hashable {
    /// A 64-bit integer (`BIGINT`).
    case integer(Int)
    /// Text (`TEXT`).
    case text(String)
    /// Bytes (`BYTEA` / `BLOB`).
    case blob([UInt8])
    /// SQL NULL.
    case null
}

extension SQLValue: CustomStringConvertible {
    /// The value's kind and size only: rows may hold sealed or encrypted card data, which must never reach a log.
    public var description: String {
        switch self {
        case .integer: "integer"
        case .text(let text): "text(\(text.utf8.count) bytes)"
        case .blob(let bytes): "blob(\(bytes.count) bytes)"
        case .null: "null"
        }
    }
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A text literal.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue {
    /// Text, or NULL for nil.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    /// An integer, or NULL for nil.
    public static func integer(_ value: Int?) -> SQLValue { value.map { .integer($0) } ?? .null }
    /// Bytes, or NULL for nil.
    public static func blob(_ value: [UInt8]?) -> SQLValue { value.map { .blob($0) } ?? .null }
    /// 1 or 0.
    public static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}
