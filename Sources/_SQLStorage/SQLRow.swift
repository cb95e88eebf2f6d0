/// One result row: values by column name, read with typed accessors that throw ``StorageError/corruptRow`` when a
/// column is missing or of another type (a schema mismatch, never a caller's input).
public struct SQLRow: Sendable {
    private let columns: SQLColumns
    private let cells: [SQLValue]

    /// Creates a row from its values, in the order of `columns`.
    public init(columns: SQLColumns, values: [SQLValue]) {
        precondition(values.count == columns.count, "a row has a value for each column")
        self.columns = columns
        cells = values
    }

    /// The raw value of `column`; nil when the row has no such column.
    public subscript(column: String) -> SQLValue? { columns.position(of: column).map { cells[$0] } }

    /// An integer column.
    public func integer(_ column: String) throws(StorageError) -> Int {
        guard case .integer(let value) = self[column] else { throw mismatch(column, "an integer") }
        return value
    }

    /// An integer column that may be NULL.
    public func optionalInteger(_ column: String) throws(StorageError) -> Int? {
        if case .null = self[column] { return nil }
        return try integer(column)
    }

    /// A text column.
    public func text(_ column: String) throws(StorageError) -> String {
        guard case .text(let value) = self[column] else { throw mismatch(column, "text") }
        return value
    }

    /// A text column that may be NULL.
    public func optionalText(_ column: String) throws(StorageError) -> String? {
        if case .null = self[column] { return nil }
        return try text(column)
    }

    /// A bytes column.
    public func blob(_ column: String) throws(StorageError) -> [UInt8] {
        guard case .blob(let value) = self[column] else { throw mismatch(column, "bytes") }
        return value
    }

    /// A bytes column that may be NULL.
    public func optionalBlob(_ column: String) throws(StorageError) -> [UInt8]? {
        if case .null = self[column] { return nil }
        return try blob(column)
    }

    /// A 0/1 integer column as a Bool.
    public func bool(_ column: String) throws(StorageError) -> Bool { try integer(column) != 0 }

    private func mismatch(_ column: String, _ expected: String) -> StorageError {
        StorageError(.corruptRow, "column \(column) is not \(expected)")
    }
}

/// The column names of a result, shared by its rows (a statement's are read once, when it is prepared): a row is
/// then only its values, not a dictionary of its own.
public final class SQLColumns: Sendable {
    private let positions: [String: Int]
    /// How many columns there are.
    public let count: Int

    /// Columns named `names`, in order; of two columns with one name, a row shows the last.
    public init(_ names: [String]) {
        count = names.count
        positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
    }

    func position(of name: String) -> Int? { positions[name] }
}
