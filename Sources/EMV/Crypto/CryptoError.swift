/// An error from EMV cryptography: a bad key, data, IV, MAC length, PIN, PAN or PIN block.
///
/// Equality and hashing compare ``code`` only, so tests can write
/// `#expect(throws: CryptoError.invalidKeyLength) { ... }`. Messages name what was wrong and how long it was,
/// never the key, PIN, PAN or PIN block bytes themselves.
public struct CryptoError: Error, Hashable, CustomStringConvertible, Sendable {
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
    /// The source file that threw the error.
    public let file: String
    /// The source line that threw the error.
    public let line: UInt

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// Errors are equal when their codes are, whatever the message or location.
    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension CryptoError {
    /// Any error with code ``Code/invalidKeyLength``, for matching.
    public static let invalidKeyLength = CryptoError(.invalidKeyLength, "invalid key length")
    /// Any error with code ``Code/invalidKeyVariant``, for matching.
    public static let invalidKeyVariant = CryptoError(.invalidKeyVariant, "invalid key variant")
    /// Any error with code ``Code/invalidDataLength``, for matching.
    public static let invalidDataLength = CryptoError(.invalidDataLength, "invalid data length")
    /// Any error with code ``Code/invalidIVLength``, for matching.
    public static let invalidIVLength = CryptoError(.invalidIVLength, "invalid IV length")
    /// Any error with code ``Code/invalidMACLength``, for matching.
    public static let invalidMACLength = CryptoError(.invalidMACLength, "invalid MAC length")
    /// Any error with code ``Code/invalidPIN``, for matching.
    public static let invalidPIN = CryptoError(.invalidPIN, "invalid PIN")
    /// Any error with code ``Code/invalidPAN``, for matching.
    public static let invalidPAN = CryptoError(.invalidPAN, "invalid PAN")
    /// Any error with code ``Code/invalidPINBlock``, for matching.
    public static let invalidPINBlock = CryptoError(.invalidPINBlock, "invalid PIN block")
    /// Any error with code ``Code/invalidPINBlockFormat``, for matching.
    public static let invalidPINBlockFormat = CryptoError(.invalidPINBlockFormat, "invalid PIN block format")
    /// Any error with code ``Code/invalidPINBlockFill``, for matching.
    public static let invalidPINBlockFill = CryptoError(.invalidPINBlockFill, "invalid PIN block fill")
    /// Any error with code ``Code/invalidFieldLength``, for matching.
    public static let invalidFieldLength = CryptoError(.invalidFieldLength, "invalid field length")
    /// Any error with code ``Code/invalidParameter``, for matching.
    public static let invalidParameter = CryptoError(.invalidParameter, "invalid parameter")
}
