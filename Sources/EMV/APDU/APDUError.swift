/// An error from parsing or building an APDU (ISO/IEC 7816-4).
///
/// Equality and hashing compare ``code`` only, so tests can write `#expect(throws: APDUError.trailingBytes)`
/// and read ``offset`` from the caught error when the position matters. Messages name lengths and positions,
/// never the bytes of the command or response (a VERIFY carries a PIN block, a READ RECORD response a PAN).
public struct APDUError: CodedError {
    /// What was wrong, independent of where it happened.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case truncatedHeader
            case lcMismatch
            case shortLcZero
            case extendedLcZero
            case truncatedExtendedLe
            case trailingBytes
            case truncatedStatusWord
            case dataTooLong
            case expectedLengthOutOfRange
            case invalidParameter
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Fewer than the four header bytes CLA INS P1 P2.
        public static let truncatedHeader = Code(.truncatedHeader)
        /// The Lc field announces more data bytes than the command holds.
        public static let lcMismatch = Code(.lcMismatch)
        /// A short Lc of 00 followed by a single byte: short form has no Lc of zero.
        public static let shortLcZero = Code(.shortLcZero)
        /// An extended Lc field of 00 00 00: extended Lc must announce at least one byte.
        public static let extendedLcZero = Code(.extendedLcZero)
        /// One byte after extended-length data where an extended Le needs two.
        public static let truncatedExtendedLe = Code(.truncatedExtendedLe)
        /// Bytes left over after the last field the command's case allows.
        public static let trailingBytes = Code(.trailingBytes)
        /// A response shorter than the two status word bytes.
        public static let truncatedStatusWord = Code(.truncatedStatusWord)
        /// Command data longer than 65,535 bytes, the most an extended Lc can announce.
        public static let dataTooLong = Code(.dataTooLong)
        /// An expected length outside 0...65,536.
        public static let expectedLengthOutOfRange = Code(.expectedLengthOutOfRange)
        /// A builder argument outside what the command allows (SFI, record number, PIN block size, ...).
        public static let invalidParameter = Code(.invalidParameter)

        /// The code's name, as in `APDUError.Code.trailingBytes`.
        public var description: String { base.rawValue }
    }

    /// What was wrong.
    public let code: Code
    /// Byte offset into the parsed bytes where the problem was found; nil for builder errors.
    public let offset: Int?
    /// A human explanation, free of card data.
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

    private static func pattern(_ code: Code) -> APDUError {
        APDUError(code: code, offset: nil, message: "any \(code) error")
    }

    /// Matches any ``Code/truncatedHeader`` error.
    public static let truncatedHeader = pattern(.truncatedHeader)
    /// Matches any ``Code/lcMismatch`` error.
    public static let lcMismatch = pattern(.lcMismatch)
    /// Matches any ``Code/shortLcZero`` error.
    public static let shortLcZero = pattern(.shortLcZero)
    /// Matches any ``Code/extendedLcZero`` error.
    public static let extendedLcZero = pattern(.extendedLcZero)
    /// Matches any ``Code/truncatedExtendedLe`` error.
    public static let truncatedExtendedLe = pattern(.truncatedExtendedLe)
    /// Matches any ``Code/trailingBytes`` error.
    public static let trailingBytes = pattern(.trailingBytes)
    /// Matches any ``Code/truncatedStatusWord`` error.
    public static let truncatedStatusWord = pattern(.truncatedStatusWord)
    /// Matches any ``Code/dataTooLong`` error.
    public static let dataTooLong = pattern(.dataTooLong)
    /// Matches any ``Code/expectedLengthOutOfRange`` error.
    public static let expectedLengthOutOfRange = pattern(.expectedLengthOutOfRange)
    /// Matches any ``Code/invalidParameter`` error.
    public static let invalidParameter = pattern(.invalidParameter)
}
