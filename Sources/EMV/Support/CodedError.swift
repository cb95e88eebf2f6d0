/// The shape the module's error structs share (modelled on swift-asn1's `ASN1Error`): a ``code`` saying what
/// went wrong, the byte ``offset`` for codecs, a ``message`` that never carries card data, and the source location
/// that threw it.
///
/// Equality and hashing compare the code only, so tests match a kind of error with
/// `#expect(throws: APDUError.trailingBytes)`, callers with `catch ODAError.expired`, and read the offset or message
/// from the caught value when it matters. ``TLVError``, ``APDUError``, ``ValueError``, ``CryptoError`` and
/// ``ODAError`` conform.
public protocol CodedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of error: a struct wrapping a private enum, so new kinds can be added without breaking callers.
    associatedtype Code: Hashable, Sendable, CustomStringConvertible

    /// What went wrong.
    var code: Code { get }
    /// Where in the input it went wrong, for codecs; nil for errors that are not about a position.
    var offset: Int? { get }
    /// A human explanation, free of card data and key material.
    var message: String { get }
    /// The source file that threw the error (not part of equality).
    var file: String { get }
    /// The source line that threw the error (not part of equality).
    var line: UInt { get }
    /// The type's name as `description` shows it, e.g. `APDUError`.
    static var domain: String { get }
}

extension CodedError {
    /// No offset: the default for errors that are not about a position in an input.
    public var offset: Int? { nil }

    /// The type's name, e.g. `APDUError`.
    public static var domain: String { String(describing: Self.self) }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Matches any error of this type with the same code, so `catch ODAError.expired` works on untyped errors.
    public static func ~= (pattern: Self, value: any Error) -> Bool {
        (value as? Self)?.code == pattern.code
    }

    /// Domain, code, offset and message, e.g. `APDUError.trailingBytes at offset 9: 1 bytes after ...`.
    public var description: String {
        "\(Self.domain).\(code)\(offset.map { " at offset \($0)" } ?? ""): \(message)"
    }
}
