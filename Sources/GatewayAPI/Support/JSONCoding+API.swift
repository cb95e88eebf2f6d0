public import Foundation

extension JSONEncoder {
    /// The HTTP API's JSON: ISO 8601 dates, sorted keys (stable bodies, so a replayed response is byte-identical).
    public static var gatewayAPI: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what ``Foundation/JSONEncoder/gatewayAPI`` writes.
    public static var gatewayAPI: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
