public import EMV

/// An error from encoding, decoding or framing an ISO 8583 message.
///
/// Equality and hashing compare ``code`` only, so tests write `#expect(throws: ISO8583Error.truncatedField)` and read
/// ``offset`` and ``field`` from the caught error when the position matters. Messages name field numbers, lengths
/// and positions, never field values (a message carries a PAN, track 2, a PIN block and ICC data).
public struct ISO8583Error: CodedError {
    /// What was wrong, independent of where it happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case truncatedMTI
            case invalidMTI
            case truncatedBitmap
            case invalidBitmap
            case secondaryBitmapInconsistent
            case fieldNotInSpecification
            case invalidFieldNumber
            case truncatedLength
            case invalidLength
            case lengthExceedsMaximum
            case lengthMismatch
            case truncatedField
            case nonNumeric
            case invalidCharacter
            case invalidPadding
            case invalidValue
            case trailingBytes
            case truncatedFrame
            case oversizedFrame
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Fewer bytes than the message type indicator needs.
        public static let truncatedMTI = Code(.truncatedMTI)
        /// A message type indicator that is not four decimal digits.
        public static let invalidMTI = Code(.invalidMTI)
        /// Fewer bytes than the primary or secondary bitmap needs.
        public static let truncatedBitmap = Code(.truncatedBitmap)
        /// A text bitmap that is not hexadecimal digits.
        public static let invalidBitmap = Code(.invalidBitmap)
        /// Bit 1 (secondary bitmap present) disagrees with the specification or with the fields: the specification
        /// has no secondary bitmap, or the secondary bitmap announces no field.
        public static let secondaryBitmapInconsistent = Code(.secondaryBitmapInconsistent)
        /// A bitmap bit or a message field for a field number the specification does not define.
        public static let fieldNotInSpecification = Code(.fieldNotInSpecification)
        /// A field number outside 2...128 (field 1 is the secondary bitmap, which the codec writes itself).
        public static let invalidFieldNumber = Code(.invalidFieldNumber)
        /// Fewer bytes than a field's length prefix needs.
        public static let truncatedLength = Code(.truncatedLength)
        /// A length prefix that is not a number in its encoding (non-digit text, a BCD nibble over 9).
        public static let invalidLength = Code(.invalidLength)
        /// A field longer than its specification's maximum, or than its length prefix can express.
        public static let lengthExceedsMaximum = Code(.lengthExceedsMaximum)
        /// A fixed-length field whose value has another length.
        public static let lengthMismatch = Code(.lengthMismatch)
        /// Fewer bytes than a field's length announces.
        public static let truncatedField = Code(.truncatedField)
        /// A character other than 0-9 in a numeric field.
        public static let nonNumeric = Code(.nonNumeric)
        /// A byte or character the field's encoding cannot represent (a non-ASCII byte in an ASCII field).
        public static let invalidCharacter = Code(.invalidCharacter)
        /// An odd-length packed field without the pad nibble its specification names.
        public static let invalidPadding = Code(.invalidPadding)
        /// A value of the wrong kind for its field (bytes for a text field, non-hex text for a binary field).
        public static let invalidValue = Code(.invalidValue)
        /// Bytes left over after the last field the bitmaps announce, or after a frame.
        public static let trailingBytes = Code(.trailingBytes)
        /// Fewer bytes than a frame's two-byte length prefix or its announced length.
        public static let truncatedFrame = Code(.truncatedFrame)
        /// A message longer than the framing allows.
        public static let oversizedFrame = Code(.oversizedFrame)

        /// The code's name, as in `ISO8583Error.Code.truncatedField`.
        public var description: String { base.rawValue }
    }

    /// What was wrong.
    public let code: Code
    /// Byte offset into the decoded bytes where the problem was found; nil for encoding errors.
    public let offset: Int?
    /// The field number concerned (0 for the message type indicator, 1 for the secondary bitmap), when one is.
    public let field: Int?
    /// A human explanation, free of field values.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(
        code: Code, offset: Int? = nil, field: Int? = nil, message: String, file: String = #fileID,
        line: UInt = #line
    ) {
        self.code = code
        self.offset = offset
        self.field = field
        self.message = message
        self.file = file
        self.line = line
    }

    /// Domain, code, field, offset and message, e.g. `ISO8583Error.truncatedField (field 35) at offset 40: ...`.
    public var description: String {
        "\(Self.domain).\(code)\(field.map { " (field \($0))" } ?? "")\(offset.map { " at offset \($0)" } ?? ""): "
            + message
    }

    private static func pattern(_ code: Code) -> ISO8583Error {
        ISO8583Error(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/truncatedMTI`` error.
    public static let truncatedMTI = pattern(.truncatedMTI)
    /// Matches any ``Code/invalidMTI`` error.
    public static let invalidMTI = pattern(.invalidMTI)
    /// Matches any ``Code/truncatedBitmap`` error.
    public static let truncatedBitmap = pattern(.truncatedBitmap)
    /// Matches any ``Code/invalidBitmap`` error.
    public static let invalidBitmap = pattern(.invalidBitmap)
    /// Matches any ``Code/secondaryBitmapInconsistent`` error.
    public static let secondaryBitmapInconsistent = pattern(.secondaryBitmapInconsistent)
    /// Matches any ``Code/fieldNotInSpecification`` error.
    public static let fieldNotInSpecification = pattern(.fieldNotInSpecification)
    /// Matches any ``Code/invalidFieldNumber`` error.
    public static let invalidFieldNumber = pattern(.invalidFieldNumber)
    /// Matches any ``Code/truncatedLength`` error.
    public static let truncatedLength = pattern(.truncatedLength)
    /// Matches any ``Code/invalidLength`` error.
    public static let invalidLength = pattern(.invalidLength)
    /// Matches any ``Code/lengthExceedsMaximum`` error.
    public static let lengthExceedsMaximum = pattern(.lengthExceedsMaximum)
    /// Matches any ``Code/lengthMismatch`` error.
    public static let lengthMismatch = pattern(.lengthMismatch)
    /// Matches any ``Code/truncatedField`` error.
    public static let truncatedField = pattern(.truncatedField)
    /// Matches any ``Code/nonNumeric`` error.
    public static let nonNumeric = pattern(.nonNumeric)
    /// Matches any ``Code/invalidCharacter`` error.
    public static let invalidCharacter = pattern(.invalidCharacter)
    /// Matches any ``Code/invalidPadding`` error.
    public static let invalidPadding = pattern(.invalidPadding)
    /// Matches any ``Code/invalidValue`` error.
    public static let invalidValue = pattern(.invalidValue)
    /// Matches any ``Code/trailingBytes`` error.
    public static let trailingBytes = pattern(.trailingBytes)
    /// Matches any ``Code/truncatedFrame`` error.
    public static let truncatedFrame = pattern(.truncatedFrame)
    /// Matches any ``Code/oversizedFrame`` error.
    public static let oversizedFrame = pattern(.oversizedFrame)
}
