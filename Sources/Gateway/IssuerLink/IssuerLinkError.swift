public import EMV

/// An error of the link to the issuer: no answer in time, no connection, an answer that cannot be read, or a
/// request that cannot be sent.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: IssuerLinkError.timedOut)`. Messages never carry
/// a PAN, track 2, PIN block or ICC data: they name what was wrong, a field number, a length at most.
public struct IssuerLinkError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case timedOut
            case unavailable
            case malformedResponse
            case invalidRequest
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The request was sent and no answer came in time: the issuer may have acted on it, so the caller must
        /// reverse it.
        public static let timedOut = Code(.timedOut)
        /// The issuer cannot be reached: no connection within the timeout, or the connection was lost before the
        /// answer. When the request had been written before the loss the issuer may have acted on it; a caller that
        /// must be sure reverses, as for ``timedOut``.
        public static let unavailable = Code(.unavailable)
        /// The answer is not a readable response to the request (no field 39, wrong message type).
        public static let malformedResponse = Code(.malformedResponse)
        /// The request cannot be built or sent: a value out of range, a field that does not encode, no STAN or
        /// terminal id to match the answer by, or the same reference already in flight.
        public static let invalidRequest = Code(.invalidRequest)

        /// The code's name, as in `IssuerLinkError.Code.timedOut`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data and key material.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(code: Code, message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> IssuerLinkError {
        IssuerLinkError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/timedOut`` error.
    public static let timedOut = pattern(.timedOut)
    /// Matches any ``Code/unavailable`` error.
    public static let unavailable = pattern(.unavailable)
    /// Matches any ``Code/malformedResponse`` error.
    public static let malformedResponse = pattern(.malformedResponse)
    /// Matches any ``Code/invalidRequest`` error.
    public static let invalidRequest = pattern(.invalidRequest)
}
