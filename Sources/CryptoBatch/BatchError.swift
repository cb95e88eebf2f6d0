/// An error answered on one line of the batch interface: malformed JSON, an unknown operation, a missing or
/// malformed argument, or an error of the EMV API the operation called.
///
/// Messages name arguments but never carry their values, because those are keys, PANs and PINs.
public struct BatchError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; the `code` field of the error line.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case invalidJSON
            case unsupportedValue
            case duplicateKey
            case emptyLine
            case unknownOperation
            case missingArgument
            case unexpectedArgument
            case invalidArgument
            case unsupportedArgument
            case crypto(String)
        }

        private let base: Base

        /// The line is not valid JSON.
        public static let invalidJSON = Code(base: .invalidJSON)
        /// The line is JSON but not a flat object of strings, numbers, booleans and nulls.
        public static let unsupportedValue = Code(base: .unsupportedValue)
        /// The object names the same key twice.
        public static let duplicateKey = Code(base: .duplicateKey)
        /// The line is blank.
        public static let emptyLine = Code(base: .emptyLine)
        /// `op` is missing, not a string, or names no known operation.
        public static let unknownOperation = Code(base: .unknownOperation)
        /// A required argument of the operation is absent.
        public static let missingArgument = Code(base: .missingArgument)
        /// The object carries an argument the operation does not take.
        public static let unexpectedArgument = Code(base: .unexpectedArgument)
        /// An argument has the wrong JSON type or malformed text (odd hex, non-digits).
        public static let invalidArgument = Code(base: .invalidArgument)
        /// An argument value is well formed but selects something this implementation does not provide.
        public static let unsupportedArgument = Code(base: .unsupportedArgument)

        /// An error thrown by the EMV API, named by that error's own code.
        public static func crypto(_ code: String) -> Code { Code(base: .crypto(code)) }

        /// The code's name, such as `invalidJSON` (stable: scripts match on it).
        public var description: String {
            switch base {
            case .invalidJSON: "invalidJSON"
            case .unsupportedValue: "unsupportedValue"
            case .duplicateKey: "duplicateKey"
            case .emptyLine: "emptyLine"
            case .unknownOperation: "unknownOperation"
            case .missingArgument: "missingArgument"
            case .unexpectedArgument: "unexpectedArgument"
            case .invalidArgument: "invalidArgument"
            case .unsupportedArgument: "unsupportedArgument"
            case .crypto(let code): code
            }
        }
    }

    /// The kind of failure.
    public let code: Code
    /// A human-readable explanation that never contains argument values.
    public let message: String
    /// The source file that threw the error.
    public let file: String
    /// The source line that threw the error.
    public let line: UInt

    /// Makes an error with a code and a message.
    public init(_ code: Code, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// Errors are equal when their codes are, whatever the message or location.
    public static func == (lhs: BatchError, rhs: BatchError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    static func malformed(_ what: String, at offset: Int) -> BatchError {
        BatchError(.invalidJSON, "\(what) at byte \(offset)")
    }
}

extension BatchError {
    /// Any error with code ``Code/invalidJSON``, for matching.
    public static let invalidJSON = BatchError(.invalidJSON, "invalid JSON")
    /// Any error with code ``Code/unsupportedValue``, for matching.
    public static let unsupportedValue = BatchError(.unsupportedValue, "unsupported value")
    /// Any error with code ``Code/duplicateKey``, for matching.
    public static let duplicateKey = BatchError(.duplicateKey, "duplicate key")
    /// Any error with code ``Code/emptyLine``, for matching.
    public static let emptyLine = BatchError(.emptyLine, "empty line")
    /// Any error with code ``Code/unknownOperation``, for matching.
    public static let unknownOperation = BatchError(.unknownOperation, "unknown operation")
    /// Any error with code ``Code/missingArgument``, for matching.
    public static let missingArgument = BatchError(.missingArgument, "missing argument")
    /// Any error with code ``Code/unexpectedArgument``, for matching.
    public static let unexpectedArgument = BatchError(.unexpectedArgument, "unexpected argument")
    /// Any error with code ``Code/invalidArgument``, for matching.
    public static let invalidArgument = BatchError(.invalidArgument, "invalid argument")
    /// Any error with code ``Code/unsupportedArgument``, for matching.
    public static let unsupportedArgument = BatchError(.unsupportedArgument, "unsupported argument")
}
