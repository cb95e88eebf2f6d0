public import EMV

/// A failure of the gateway's storage: the database is unreachable, a statement failed, a key is taken, or a row
/// is not what the schema says.
///
/// Messages name the operation and the database's own error class, never bound values (they may be encrypted card
/// data or keyed hashes).
public struct StorageError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case connectionFailed, queryFailed, uniqueViolation, transactionConflict, corruptRow, migrationFailed
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The database could not be opened or reached.
        public static let connectionFailed = Code(.connectionFailed)
        /// A statement failed.
        public static let queryFailed = Code(.queryFailed)
        /// An insert or update hit a unique key that is taken.
        public static let uniqueViolation = Code(.uniqueViolation)
        /// A transaction lost a deadlock or serialization conflict (PostgreSQL `40P01`, `40001`) and retrying it a
        /// few times did not help; nothing of it was committed, so the whole operation may be retried.
        public static let transactionConflict = Code(.transactionConflict)
        /// A row lacks a column or holds a value of another type than the schema's.
        public static let corruptRow = Code(.corruptRow)
        /// A migration failed; the schema is at the version before it.
        public static let migrationFailed = Code(.migrationFailed)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of bound values.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(_ code: Code, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> StorageError { StorageError(code, "any \(code) error") }

    /// Matches any ``Code/connectionFailed`` error.
    public static let connectionFailed = pattern(.connectionFailed)
    /// Matches any ``Code/queryFailed`` error.
    public static let queryFailed = pattern(.queryFailed)
    /// Matches any ``Code/uniqueViolation`` error.
    public static let uniqueViolation = pattern(.uniqueViolation)
    /// Matches any ``Code/transactionConflict`` error.
    public static let transactionConflict = pattern(.transactionConflict)
    /// Matches any ``Code/corruptRow`` error.
    public static let corruptRow = pattern(.corruptRow)
    /// Matches any ``Code/migrationFailed`` error.
    public static let migrationFailed = pattern(.migrationFailed)
}
