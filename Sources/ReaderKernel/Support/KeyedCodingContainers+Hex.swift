import EMV

// Byte strings in configuration files are hex text, as EMV specifications and terminal management systems write
// them; these two helpers keep each Codable conformance short.
extension KeyedDecodingContainer {
    /// Decodes a hex string into bytes, failing with a `DecodingError` that names the key.
    func decodeHex(_ key: Key) throws -> [UInt8] {
        let text = try decode(String.self, forKey: key)
        guard let bytes = [UInt8](hex: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not hexadecimal text")
        }
        return bytes
    }

    /// Decodes an ISO 4217 alphabetic code such as `EUR`.
    func decodeCurrency(_ key: Key) throws -> Currency {
        let code = try decode(String.self, forKey: key)
        guard let currency = Currency(alphabeticCode: code) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "unknown currency")
        }
        return currency
    }
}

extension KeyedEncodingContainer {
    /// Encodes bytes as upper-case hex text.
    mutating func encodeHex(_ bytes: [UInt8], forKey key: Key) throws {
        try encode(bytes.hexString, forKey: key)
    }
}
