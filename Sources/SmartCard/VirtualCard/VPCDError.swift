public import EMV

/// An error on the link between a virtual card and vsmartcard's vpcd: the endpoint or ATR is unusable, the TCP
/// connection failed or closed, or a frame broke the protocol.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: VPCDError.truncatedFrame)`. Messages name lengths,
/// addresses and system error numbers, never APDU bytes (a command may hold a PIN block, a response a PAN).
public struct VPCDError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidEndpoint
            case invalidATR
            case invalidUID
            case connectionFailed
            case connectionClosed
            case socketFailed
            case truncatedFrame
            case emptyFrame
            case unknownControlCode
            case malformedCommand
            case responseTooLong
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The address is not `HOST:PORT` (or `[IPv6]:PORT`) with a port in 1...65535.
        public static let invalidEndpoint = Code(.invalidEndpoint)
        /// The answer to reset is not 2 to 33 bytes starting with TS 3B (direct) or 3F (inverse convention).
        public static let invalidATR = Code(.invalidATR)
        /// The UID is not 4, 7 or 10 bytes (ISO/IEC 14443-3 single, double or triple size).
        public static let invalidUID = Code(.invalidUID)
        /// vpcd could not be reached: the name does not resolve, or nothing accepts connections at the port.
        public static let connectionFailed = Code(.connectionFailed)
        /// vpcd closed the connection (pcscd stopped or restarted, or the reader was removed).
        public static let connectionClosed = Code(.connectionClosed)
        /// A socket call failed with a system error (see the message for errno).
        public static let socketFailed = Code(.socketFailed)
        /// The connection ended inside a frame: fewer bytes arrived than its length announced.
        public static let truncatedFrame = Code(.truncatedFrame)
        /// A frame of length zero, which the protocol does not define; ignored.
        public static let emptyFrame = Code(.emptyFrame)
        /// A one-byte control message other than power off (00), power on (01), reset (02) and get ATR (04); ignored.
        public static let unknownControlCode = Code(.unknownControlCode)
        /// A frame of two or more bytes that is not a command APDU; answered with status word 6700.
        public static let malformedCommand = Code(.malformedCommand)
        /// The applet's response is longer than a frame's 16-bit length can announce; answered with 6F00.
        public static let responseTooLong = Code(.responseTooLong)

        /// The code's name, as in `VPCDError.Code.truncatedFrame`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data.
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

    private static func pattern(_ code: Code) -> VPCDError {
        VPCDError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/invalidEndpoint`` error.
    public static let invalidEndpoint = pattern(.invalidEndpoint)
    /// Matches any ``Code/invalidATR`` error.
    public static let invalidATR = pattern(.invalidATR)
    /// Matches any ``Code/invalidUID`` error.
    public static let invalidUID = pattern(.invalidUID)
    /// Matches any ``Code/connectionFailed`` error.
    public static let connectionFailed = pattern(.connectionFailed)
    /// Matches any ``Code/connectionClosed`` error.
    public static let connectionClosed = pattern(.connectionClosed)
    /// Matches any ``Code/socketFailed`` error.
    public static let socketFailed = pattern(.socketFailed)
    /// Matches any ``Code/truncatedFrame`` error.
    public static let truncatedFrame = pattern(.truncatedFrame)
    /// Matches any ``Code/emptyFrame`` error.
    public static let emptyFrame = pattern(.emptyFrame)
    /// Matches any ``Code/unknownControlCode`` error.
    public static let unknownControlCode = pattern(.unknownControlCode)
    /// Matches any ``Code/malformedCommand`` error.
    public static let malformedCommand = pattern(.malformedCommand)
    /// Matches any ``Code/responseTooLong`` error.
    public static let responseTooLong = pattern(.responseTooLong)
}
