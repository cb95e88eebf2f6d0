public import EMV

/// An error the gateway's API reports to a caller: sealed card data that is stale, replayed, someone else's, or
/// unopenable.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: GatewayAPIError.cardDataExpired)`. Messages
/// never carry card data, plaintext, ciphertext or key bytes: they name what was wrong and nothing else. The server
/// maps codes to HTTP problems at its edge.
public struct GatewayAPIError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case cardDataExpired
            case cardDataReplayed
            case cardDataInvalid
            case forbidden
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The sealed card data was created more than the allowed age (60 s) before it was opened.
        public static let cardDataExpired = Code(.cardDataExpired)
        /// The sealed card data (its read id) was already opened once.
        public static let cardDataReplayed = Code(.cardDataReplayed)
        /// The sealed card data cannot be opened: unknown key id, bad encapsulated key or ciphertext, altered
        /// authenticated data, malformed payload, or a creation time too far in the future.
        public static let cardDataInvalid = Code(.cardDataInvalid)
        /// The sealed card data belongs to another merchant or device than the caller.
        public static let forbidden = Code(.forbidden)

        /// The code's name, as in `GatewayAPIError.Code.cardDataExpired`.
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

    private static func pattern(_ code: Code) -> GatewayAPIError {
        GatewayAPIError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/cardDataExpired`` error.
    public static let cardDataExpired = pattern(.cardDataExpired)
    /// Matches any ``Code/cardDataReplayed`` error.
    public static let cardDataReplayed = pattern(.cardDataReplayed)
    /// Matches any ``Code/cardDataInvalid`` error.
    public static let cardDataInvalid = pattern(.cardDataInvalid)
    /// Matches any ``Code/forbidden`` error.
    public static let forbidden = pattern(.forbidden)
}
