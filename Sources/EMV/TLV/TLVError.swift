/// An error from the BER-TLV codec or a data object list, with the byte offset where the input went wrong.
///
/// Equality and hashing compare ``code`` only, so tests and callers can match with the static values:
/// `#expect(throws: TLVError.truncatedTag) { ... }`. Messages name tags, lengths and offsets, never value bytes,
/// so an error can be logged even when the input held a PAN or track data.
public struct TLVError: CodedError {
    /// What was wrong with the input.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case truncatedTag
            case truncatedLength
            case lengthExceedsData
            case indefiniteLength
            case lengthTooLong
            case depthExceeded
            case trailingBytes
            case paddingNotAllowed
            case nonMinimalLength
            case tagTooLong
            case invalidTag
            case unexpectedTag
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The input ended inside a tag (or where a tag was required).
        public static let truncatedTag = Code(.truncatedTag)
        /// The input ended inside a length field (or where one was required).
        public static let truncatedLength = Code(.truncatedLength)
        /// A length is longer than the bytes left in the input or in the enclosing constructed object.
        public static let lengthExceedsData = Code(.lengthExceedsData)
        /// The length byte `80` (BER's indefinite form), which EMV does not allow.
        public static let indefiniteLength = Code(.indefiniteLength)
        /// A length field of more than three bytes (`83` and above), or a value too long for three.
        public static let lengthTooLong = Code(.lengthTooLong)
        /// Objects nested deeper than the parser's maximum depth.
        public static let depthExceeded = Code(.depthExceeded)
        /// Bytes after the single object that was asked for.
        public static let trailingBytes = Code(.trailingBytes)
        /// `00` or `FF` padding between objects, which only the lenient rules accept.
        public static let paddingNotAllowed = Code(.paddingNotAllowed)
        /// A length written in a longer form than needed (`81 05`), which only the lenient rules accept.
        public static let nonMinimalLength = Code(.nonMinimalLength)
        /// A tag of more than three bytes.
        public static let tagTooLong = Code(.tagTooLong)
        /// A tag that is not a well-formed EMV tag where one is required (serializing, data object lists).
        public static let invalidTag = Code(.invalidTag)
        /// A data object with another tag than the one a typed value reads (``TLVCodable``).
        public static let unexpectedTag = Code(.unexpectedTag)

        /// The code's name, e.g. `truncatedTag`.
        public var description: String { base.rawValue }
    }

    /// What was wrong.
    public let code: Code
    /// Offset in bytes from the start of the input (or of the serializer's output) of the field that was wrong;
    /// set on every error the codec throws (nil only on the matching values such as ``truncatedTag``).
    public let offset: Int?
    /// A human-readable explanation; never contains value bytes.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(code: Code, offset: Int?, message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.offset = offset
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> TLVError {
        TLVError(code: code, offset: nil, message: "any \(code) error")
    }

    /// Matches any ``Code/truncatedTag`` error.
    public static let truncatedTag = pattern(.truncatedTag)
    /// Matches any ``Code/truncatedLength`` error.
    public static let truncatedLength = pattern(.truncatedLength)
    /// Matches any ``Code/lengthExceedsData`` error.
    public static let lengthExceedsData = pattern(.lengthExceedsData)
    /// Matches any ``Code/indefiniteLength`` error.
    public static let indefiniteLength = pattern(.indefiniteLength)
    /// Matches any ``Code/lengthTooLong`` error.
    public static let lengthTooLong = pattern(.lengthTooLong)
    /// Matches any ``Code/depthExceeded`` error.
    public static let depthExceeded = pattern(.depthExceeded)
    /// Matches any ``Code/trailingBytes`` error.
    public static let trailingBytes = pattern(.trailingBytes)
    /// Matches any ``Code/paddingNotAllowed`` error.
    public static let paddingNotAllowed = pattern(.paddingNotAllowed)
    /// Matches any ``Code/nonMinimalLength`` error.
    public static let nonMinimalLength = pattern(.nonMinimalLength)
    /// Matches any ``Code/tagTooLong`` error.
    public static let tagTooLong = pattern(.tagTooLong)
    /// Matches any ``Code/invalidTag`` error.
    public static let invalidTag = pattern(.invalidTag)
    /// Matches any ``Code/unexpectedTag`` error.
    public static let unexpectedTag = pattern(.unexpectedTag)
}
