import Foundation

extension JSONEncoder {
    /// The payload's plaintext encoding: dates as seconds since 1970 with fractions, so `createdAt` survives exactly
    /// enough for a 60 s window.
    package static var cardData: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what ``JSONEncoder/cardData`` writes.
    package static var cardData: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
