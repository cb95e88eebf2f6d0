public import EMV

/// An error from the test token service: a merchant certificate it cannot encrypt to, a merchant that does not match
/// the certificate, or a cryptogram of the wrong kind.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: TokenServiceError.merchantMismatch)`. Messages
/// never carry account numbers, cryptograms, keys or payloads.
public struct TokenServiceError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case merchantCertificateInvalid, merchantMismatch, cryptogramMismatch, noAccount
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The merchant certificate has no well-formed merchant identifier extension, or a key that is neither
        /// P-256 (EC_v1) nor RSA (RSA_v1).
        public static let merchantCertificateInvalid = Code(.merchantCertificateInvalid)
        /// The request's merchant identifier is not the one the merchant certificate was issued for.
        public static let merchantMismatch = Code(.merchantMismatch)
        /// The cryptogram source answered with a cryptogram of another kind than the request asked for.
        public static let cryptogramMismatch = Code(.cryptogramMismatch)
        /// The simulated device has no card to pay with.
        public static let noAccount = Code(.noAccount)

        /// The code's name, as in `TokenServiceError.Code.merchantMismatch`.
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

    private static func pattern(_ code: Code) -> TokenServiceError {
        TokenServiceError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/merchantCertificateInvalid`` error.
    public static let merchantCertificateInvalid = pattern(.merchantCertificateInvalid)
    /// Matches any ``Code/merchantMismatch`` error.
    public static let merchantMismatch = pattern(.merchantMismatch)
    /// Matches any ``Code/cryptogramMismatch`` error.
    public static let cryptogramMismatch = pattern(.cryptogramMismatch)
    /// Matches any ``Code/noAccount`` error.
    public static let noAccount = pattern(.noAccount)
}
