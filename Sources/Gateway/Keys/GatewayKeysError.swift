public import EMV

/// A failure to load, create or use the gateway's key file; messages name the file and the problem, never key
/// bytes.
public struct GatewayKeysError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case insecurePermissions, unreadable, malformed, writeFailed, cannotOpen
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The key file is readable by its group or others (its mode must be 0600).
        public static let insecurePermissions = Code(.insecurePermissions)
        /// The key file cannot be read.
        public static let unreadable = Code(.unreadable)
        /// The key file is not in the expected format or holds an invalid key.
        public static let malformed = Code(.malformed)
        /// The key file cannot be written.
        public static let writeFailed = Code(.writeFailed)
        /// Data sealed under the data key does not open (altered, or sealed under another key).
        public static let cannotOpen = Code(.cannotOpen)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of key material.
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

    private static func pattern(_ code: Code) -> GatewayKeysError { GatewayKeysError(code, "any \(code) error") }

    /// Matches any ``Code/insecurePermissions`` error.
    public static let insecurePermissions = pattern(.insecurePermissions)
    /// Matches any ``Code/unreadable`` error.
    public static let unreadable = pattern(.unreadable)
    /// Matches any ``Code/malformed`` error.
    public static let malformed = pattern(.malformed)
    /// Matches any ``Code/writeFailed`` error.
    public static let writeFailed = pattern(.writeFailed)
    /// Matches any ``Code/cannotOpen`` error.
    public static let cannotOpen = pattern(.cannotOpen)
}
