import Foundation

// Amounts travel as JSON strings ("12.34"), as Apple Pay on the Web sends them: a JSON number would pass through
// Double in some decoders and lose exactness.

extension Decimal {
    /// The decimal written in `text` (`12.34`, `-0.5`, `100`), exactly; nil for anything else (exponents, spaces,
    /// a comma, more than 30 digits).
    init?(amountString text: String) {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
            body.count <= 31
        else { return nil }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        self = value
    }

    /// The plain decimal string (`12.34`), the form ``init(amountString:)`` reads.
    var amountString: String { description }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension KeyedDecodingContainer {
    /// Decodes an amount written as a decimal string.
    func decodeAmount(forKey key: Key) throws -> Decimal {
        let text = try decode(String.self, forKey: key)
        guard let value = Decimal(amountString: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\"\(text)\" is not a decimal amount such as \"12.34\"")
        }
        return value
    }
}

extension KeyedEncodingContainer {
    /// Encodes an amount as a decimal string.
    mutating func encodeAmount(_ amount: Decimal, forKey key: Key) throws {
        try encode(amount.amountString, forKey: key)
    }
}
