/// One result row: values by column name, read with typed accessors that throw ``StorageError/corruptRow`` when a
/// column is missing or of another type (a schema mismatch, never a caller's input).
public struct SQLRow: Sendable {
    private let values: [String: SQLValue]

    /// Creates a row from its columns.
    public init(_ values: [String: SQLValue]) { self.values = values }

    /// The raw value of `column`; nil when the row has no such column.
    public subscript(column: String) -> SQLValue? { values[column] }

    /// An integer column.
    public func integer(_ column: String) throws(StorageError) -> Int {
        guard case .integer(let value) = values[column] else { throw mismatch(column, "an integer") }
        return value
    }

    /// An integer column that may be NULL.
    public func optionalInteger(_ column: String) throws(StorageError) -> Int? {
        if case .null = values[column] { return nil }
        return try integer(column)
    }

    /// A text column.
    public func text(_ column: String) throws(StorageError) -> String {
        guard case .text(let value) = values[column] else { throw mismatch(column, "text") }
        return value
    }

    /// A text column that may be NULL.
    public func optionalText(_ column: String) throws(StorageError) -> String? {
        if case .null = values[column] { return nil }
        return try text(column)
    }

    /// A bytes column.
    public func blob(_ column: String) throws(StorageError) -> [UInt8] {
        guard case .blob(let value) = values[column] else { throw mismatch(column, "bytes") }
        return value
    }

    /// A bytes column that may be NULL.
    public func optionalBlob(_ column: String) throws(StorageError) -> [UInt8]? {
        if case .null = values[column] { return nil }
        return try blob(column)
    }

    /// A 0/1 integer column as a Bool.
    public func bool(_ column: String) throws(StorageError) -> Bool { try integer(column) != 0 }

    private func mismatch(_ column: String, _ expected: String) -> StorageError {
        StorageError(.corruptRow, "column \(column) is not \(expected)")
    }
}
