/// What went wrong with a pass, a request or a cryptogram. Messages name the field at fault, never a pass's message
/// or a key.
public struct VASError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A pass lacks what VAS needs, or has it wrong.
        case invalidPass
        /// A cryptogram is shorter than its key id, ephemeral key and tag.
        case truncatedCryptogram
        /// No merchant key has the cryptogram's key id.
        case unknownKeyID
        /// The ephemeral key is not a point on P-256.
        case invalidEphemeralKey
        /// AES-GCM's tag does not verify: the cryptogram was altered, or encrypted for another pass type.
        case authenticationFailed
        /// The wallet's timestamp is outside the accepted window: a replayed or stale cryptogram.
        case timestampOutsideWindow
        /// The decrypted message is not UTF-8.
        case invalidMessage
        /// A merchant key file is not a P-256 private key.
        case invalidKey
    }

    /// The kind of failure.
    public let code: Code
    /// What happened, for logs and people.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
