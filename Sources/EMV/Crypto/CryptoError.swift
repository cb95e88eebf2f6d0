/// An error from EMV cryptography: a bad key, data, IV, MAC length, PIN, PAN or PIN block.
///
/// Equality and hashing compare ``code`` only, so tests can write
/// `#expect(throws: CryptoError.invalidKeyLength) { ... }`. Messages name what was wrong and how long it was,
/// never the key, PIN, PAN or PIN block bytes themselves.
public struct CryptoError: CodedError {
    /// What kind of input was rejected.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidKeyLength
            case invalidKeyVariant
            case invalidDataLength
            case invalidIVLength
            case invalidMACLength
            case invalidPIN
            case invalidPAN
            case invalidPINBlock
            case invalidPINBlockFormat
            case invalidPINBlockFill
            case invalidFieldLength
            case invalidParameter
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// A key of a length the algorithm does not take (DES: 8, 16 or 24 bytes; AES: 16, 24 or 32).
        public static let invalidKeyLength = Code(.invalidKeyLength)
        /// A key variant outside 0...31.
        public static let invalidKeyVariant = Code(.invalidKeyVariant)
        /// Data that is empty or not a whole number of cipher blocks.
        public static let invalidDataLength = Code(.invalidDataLength)
        /// An initialization vector that is not one cipher block long.
        public static let invalidIVLength = Code(.invalidIVLength)
        /// A MAC length outside 1...block size.
        public static let invalidMACLength = Code(.invalidMACLength)
        /// A PIN that is not 4 to 12 ASCII digits (on encoding, or found in a decoded PIN block).
        public static let invalidPIN = Code(.invalidPIN)
        /// A PAN that is not ASCII digits of an accepted length.
        public static let invalidPAN = Code(.invalidPAN)
        /// A PIN block of the wrong size.
        public static let invalidPINBlock = Code(.invalidPINBlock)
        /// A PIN block whose control field names another format.
        public static let invalidPINBlockFormat = Code(.invalidPINBlockFormat)
        /// A PIN block whose fill digits are not the ones its format prescribes.
        public static let invalidPINBlockFill = Code(.invalidPINBlockFill)
        /// An EMV data element of the wrong length: ATC, unpredictable number, ARQC, response code, CSU,
        /// diversification value, issuer application data.
        public static let invalidFieldLength = Code(.invalidFieldLength)
        /// A parameter outside what the operation allows: an EMV2000 tree too small for every ATC, an ARPC method
        /// the cryptogram version does not use.
        public static let invalidParameter = Code(.invalidParameter)

        /// The code's name, such as `invalidKeyLength` (stable: scripts match on it).
        public var description: String { base.rawValue }
    }

    /// What kind of input was rejected.
    public let code: Code
    /// A human-readable explanation; never contains key, PIN, PAN or PIN block bytes.
    public let message: String
    /// The source file that threw the error (not part of equality).
    public let file: String
    /// The source line that threw the error (not part of equality).
    public let line: UInt

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> CryptoError { CryptoError(code, "any \(code) error") }

    /// Matches any ``Code/invalidKeyLength`` error.
    public static let invalidKeyLength = pattern(.invalidKeyLength)
    /// Matches any ``Code/invalidKeyVariant`` error.
    public static let invalidKeyVariant = pattern(.invalidKeyVariant)
    /// Matches any ``Code/invalidDataLength`` error.
    public static let invalidDataLength = pattern(.invalidDataLength)
    /// Matches any ``Code/invalidIVLength`` error.
    public static let invalidIVLength = pattern(.invalidIVLength)
    /// Matches any ``Code/invalidMACLength`` error.
    public static let invalidMACLength = pattern(.invalidMACLength)
    /// Matches any ``Code/invalidPIN`` error.
    public static let invalidPIN = pattern(.invalidPIN)
    /// Matches any ``Code/invalidPAN`` error.
    public static let invalidPAN = pattern(.invalidPAN)
    /// Matches any ``Code/invalidPINBlock`` error.
    public static let invalidPINBlock = pattern(.invalidPINBlock)
    /// Matches any ``Code/invalidPINBlockFormat`` error.
    public static let invalidPINBlockFormat = pattern(.invalidPINBlockFormat)
    /// Matches any ``Code/invalidPINBlockFill`` error.
    public static let invalidPINBlockFill = pattern(.invalidPINBlockFill)
    /// Matches any ``Code/invalidFieldLength`` error.
    public static let invalidFieldLength = pattern(.invalidFieldLength)
    /// Matches any ``Code/invalidParameter`` error.
    public static let invalidParameter = pattern(.invalidParameter)
}
