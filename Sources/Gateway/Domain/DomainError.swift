public import EMV

/// A domain rule refused an input (a bad name, email, id or lifetime): the message names the field, never a
/// secret. The HTTP edge reports it as `invalidRequest`; the CLI prints it.
public struct DomainError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidInput, notFound
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// An input breaks a rule; the message says which.
        public static let invalidInput = Code(.invalidInput)
        /// The named merchant, user or key does not exist.
        public static let notFound = Code(.notFound)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(_ message: String, code: Code = .invalidInput, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    /// Matches any ``Code/invalidInput`` error.
    public static let invalidInput = DomainError("any invalidInput error")
    /// Matches any ``Code/notFound`` error.
    public static let notFound = DomainError("any notFound error", code: .notFound)
}
