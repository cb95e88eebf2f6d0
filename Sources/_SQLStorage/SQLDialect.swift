/// What differs between the two databases in the statements the repositories write once.
public enum SQLDialect: String, Sendable, Hashable {
    /// SQLite: `?N` placeholders, `BLOB`, no row locks (a write transaction locks the whole database).
    case sqlite
    /// PostgreSQL: `$N` placeholders, `BYTEA`, `SELECT … FOR UPDATE` row locks.
    case postgres

    /// The column type for bytes.
    public var blobType: String { self == .sqlite ? "BLOB" : "BYTEA" }

    /// The column definition of an integer key the database assigns in increasing order.
    public var autoIncrementKey: String {
        self == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
    }

    /// The suffix that locks the selected rows until the transaction ends; empty on SQLite, whose write
    /// transactions (`BEGIN IMMEDIATE`) already exclude every other writer.
    public var forUpdate: String { self == .sqlite ? "" : " FOR UPDATE" }

    /// `sql` with its `$N` placeholders in this dialect's form (SQLite numbers its parameters `?N`); a `$` inside a
    /// quoted string or identifier stays as it is.
    func placeholders(_ sql: String) -> String {
        guard self == .sqlite else { return sql }
        // Bytes, not Characters (no grapheme breaking needed): quotes, `$` and digits are ASCII, so no multi-byte
        // character can be mistaken for them.
        var bytes = Array(sql.utf8)
        var previous: UInt8 = 0
        var quote: UInt8?
        for index in bytes.indices {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }  // a doubled quote closes and reopens: same result
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), previous == UInt8(ascii: "$") {
                bytes[index - 1] = UInt8(ascii: "?")
            }
            previous = byte
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
