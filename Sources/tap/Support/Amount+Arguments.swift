import ArgumentParser
import EMV
import Foundation

extension Amount {
    /// The amount of `--amount 12.34 --currency EUR` (alphabetic or numeric ISO 4217 code).
    ///
    /// - Throws: `ValidationError` for an unknown currency, a non-positive or malformed amount, or more decimals
    ///   than the currency has.
    init(argument amount: String, currency code: String) throws {
        guard let currency = Currency(alphabeticCode: code) ?? Int(code).flatMap(Currency.init(numericCode:)) else {
            throw ValidationError("unknown currency '\(code)'")
        }
        guard let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")), value > 0 else {
            throw ValidationError("amount must be a positive decimal number, e.g. 12.34")
        }
        try self.init(value, currency: currency)
    }
}

/// Writes JSON the way every `tap … --json` does: pretty-printed, keys sorted, slashes as they are.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
