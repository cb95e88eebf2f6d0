public import EMV

/// Why a request to the issuer got no usable answer.
public struct IssuerLinkError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable { case timedOut, unavailable, malformedResponse }
        private let base: Base
        private init(_ base: Base) { self.base = base }
        /// No answer within the timeout: the request may have been acted on, so the caller reverses it.
        public static let timedOut = Code(.timedOut)
        /// The issuer cannot be reached, or the connection was lost before the answer.
        public static let unavailable = Code(.unavailable)
        /// The answer did not decode.
        public static let malformedResponse = Code(.malformedResponse)
        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of message contents.
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

    private static func pattern(_ code: Code) -> IssuerLinkError { IssuerLinkError(code, "any \(code) error") }
    /// Matches any ``Code/timedOut`` error.
    public static let timedOut = pattern(.timedOut)
    /// Matches any ``Code/unavailable`` error.
    public static let unavailable = pattern(.unavailable)
    /// Matches any ``Code/malformedResponse`` error.
    public static let malformedResponse = pattern(.malformedResponse)
}
