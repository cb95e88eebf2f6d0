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
        var result = ""
        result.reserveCapacity(sql.utf8.count)
        var previous: Character?
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }  // a doubled quote closes and reopens: same result
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character.isASCII, character.isNumber, previous == "$" {
                result.removeLast()
                result.append("?")
            }
            result.append(character)
            previous = character
        }
        return result
    }
}
