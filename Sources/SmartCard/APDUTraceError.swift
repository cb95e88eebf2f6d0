public import EMV

/// An error from parsing an ``APDUTrace``: which line was malformed and how.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: APDUTraceError.invalidHex)` and read
/// ``lineNumber`` from the caught error. Messages name lines, columns and lengths, never the hex of the line (a
/// trace holds card data).
public struct APDUTraceError: CodedError {
    /// What was wrong with the line.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case missingSeparator
            case extraSeparator
            case invalidHex
            case malformedCommand
            case malformedResponse
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// A line that is neither blank nor a comment has no `:` between command and response.
        public static let missingSeparator = Code(.missingSeparator)
        /// A line has more than one `:`.
        public static let extraSeparator = Code(.extraSeparator)
        /// A side of the line holds a character that is not a hex digit or a space, or an odd number of digits.
        public static let invalidHex = Code(.invalidHex)
        /// The command side is not a command APDU (empty, shorter than the header, or Lc disagreeing with the data).
        public static let malformedCommand = Code(.malformedCommand)
        /// The response side has fewer than the two status word bytes.
        public static let malformedResponse = Code(.malformedResponse)

        /// The code's name, as in `APDUTraceError.Code.invalidHex`.
        public var description: String { base.rawValue }
    }

    /// What was wrong.
    public let code: Code
    /// The line of the trace text, counting from 1; 0 for the matching patterns.
    public let lineNumber: Int
    /// The column within the line (counting from 1, in characters) where the problem was found, when known.
    public let column: Int?
    /// A human explanation, free of card data.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(
        code: Code, lineNumber: Int, column: Int? = nil, message: String, file: String = #fileID, line: UInt = #line
    ) {
        self.code = code
        self.lineNumber = lineNumber
        self.column = column
        self.message = message
        self.file = file
        self.line = line
    }

    /// Domain, code, line (and column) and message, e.g. `APDUTraceError.invalidHex at line 7, column 12: ...`.
    public var description: String {
        let position = column.map { "line \(lineNumber), column \($0)" } ?? "line \(lineNumber)"
        return "\(Self.domain).\(code) at \(position): \(message)"
    }

    private static func pattern(_ code: Code) -> APDUTraceError {
        APDUTraceError(code: code, lineNumber: 0, message: "any \(code) error")
    }

    /// Matches any ``Code/missingSeparator`` error.
    public static let missingSeparator = pattern(.missingSeparator)
    /// Matches any ``Code/extraSeparator`` error.
    public static let extraSeparator = pattern(.extraSeparator)
    /// Matches any ``Code/invalidHex`` error.
    public static let invalidHex = pattern(.invalidHex)
    /// Matches any ``Code/malformedCommand`` error.
    public static let malformedCommand = pattern(.malformedCommand)
    /// Matches any ``Code/malformedResponse`` error.
    public static let malformedResponse = pattern(.malformedResponse)
}
