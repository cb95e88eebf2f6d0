import EMV

/// Bytes that a card profile writes as hexadecimal text in JSON (`"9F6604"`), the way EMV specifications and traces
/// show them.
///
/// Its description gives the length only: profile fields hold keys and card data.
public struct HexBytes: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The bytes.
    public var bytes: [UInt8]

    /// Wraps bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Bytes from an array literal.
    public init(arrayLiteral elements: UInt8...) { self.bytes = elements }

    /// Decodes hexadecimal text (either case, no separators); nil when it is not.
    public init?(hex: String) {
        guard let bytes = [UInt8](hex: hex) else { return nil }
        self.bytes = bytes
    }

    /// Decodes a JSON string of hexadecimal digits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let bytes = [UInt8](hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an even number of hexadecimal digits")
        }
        self.bytes = bytes
    }

    /// Encodes as upper-case hexadecimal text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes.hexString)
    }

    /// The length only, never the bytes.
    public var description: String { "<\(bytes.count) bytes>" }
}
