import EMV
public import Foundation

/// An Apple Pay token as the app received it, passed through as JSON: a whole `PKPaymentToken` object (with
/// `paymentData`) or its `paymentData` object alone. The gateway verifies and decrypts it; this type only keeps it
/// whole, so that the API types need no Apple Pay module.
///
/// Its description never shows the token (it holds the encrypted payment data and the signature).
public struct ApplePayTokenJSON: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token, numbers kept as exact decimals.
    private let value: JSONValue

    /// Reads a token's JSON text.
    /// - Throws: `DecodingError` when it is not a JSON object.
    public init(json: Data) throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: json)
        guard case .object = value else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a token is a JSON object"))
        }
        self.value = value
    }

    /// Decodes the token object of a request body.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard case .object = value else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a token is a JSON object"))
        }
        self.value = value
    }

    /// Encodes the token object.
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }

    /// The token as compact JSON text, keys sorted.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// Never the token.
    public var description: String { "ApplePayTokenJSON(<redacted>)" }
}
