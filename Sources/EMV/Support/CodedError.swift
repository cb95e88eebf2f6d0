/// The shape the module's error structs share (modelled on swift-asn1's `ASN1Error`): a ``code`` saying what
/// went wrong, the byte ``offset`` for codecs, and a ``message`` that never carries card data.
///
/// Equality and hashing compare the code only, so tests match a kind of error with
/// `#expect(throws: APDUError.trailingBytes)` and read the offset from the caught value when it matters.
public protocol CodedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of error: a struct wrapping a private enum, so new kinds can be added without breaking callers.
    associatedtype Code: Hashable, Sendable, CustomStringConvertible

    /// What went wrong.
    var code: Code { get }
    /// Where in the input it went wrong, for codecs; nil otherwise.
    var offset: Int? { get }
    /// A human explanation, free of card data.
    var message: String { get }
    /// The type's name as `description` shows it, e.g. `APDUError`.
    static var domain: String { get }
}

extension CodedError {
    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Domain, code, offset and message, e.g. `APDUError.trailingBytes at offset 9: 1 bytes after ...`.
    public var description: String {
        "\(Self.domain).\(code)\(offset.map { " at offset \($0)" } ?? ""): \(message)"
    }
}
