import EMV
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What the console reads from a request: cookies, a url-encoded form, the query.
struct ConsoleRequest {
    let request: Request

    /// The cookie `name`.
    func cookie(_ name: String) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0] == name { return parts[1] }
            }
        }
        return nil
    }

    /// Whether a state-changing request comes from this site: an `Origin` (or, without one, `Referer`) naming
    /// another host is refused, whatever the token says.
    var isSameOrigin: Bool {
        guard let host = request.head.authority else { return false }
        let source = request.headers[.origin] ?? request.headers[.referer]
        guard let source else { return true }  // SameSite=Strict cookies and the token still apply
        guard let url = URL(string: source), let sourceHost = url.host else { return false }
        return sourceHost + (url.port.map { ":\($0)" } ?? "") == host
    }

    /// A query parameter, trimmed; nil when empty.
    func query(_ name: String) -> String? {
        guard let value = request.uri.queryParameters.get(name)?.trimmingCharacters(in: .whitespaces),
            !value.isEmpty
        else { return nil }
        return value
    }

    /// The url-encoded form body (at most 16 KiB).
    func form(context: GatewayRequestContext) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 16_384)
        return Self.parseForm(String(buffer: body))
    }

    static func parseForm(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard let name = parts.first else { continue }
            fields[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}

/// Amounts as the console shows and reads them, in a currency's major units.
enum ConsoleMoney {
    /// `12.34 EUR`, as EMV's ``Amount`` writes it.
    static func format(_ minorUnits: Int, _ currency: String) -> String {
        guard let code = Currency(alphabeticCode: currency) else { return "\(minorUnits) \(currency)" }
        return Amount(minorUnits: minorUnits, currency: code).formatted
    }

    /// `12.34`: the amount without its currency, as a form's field takes it back (``parse(_:_:)``).
    static func amountText(_ minorUnits: Int, _ currency: String) -> String {
        String(format(minorUnits, currency).prefix { $0 != " " })
    }

    /// "12.34" in `currency` → 1234; nil for anything else (a sign, more fraction digits than the currency has).
    static func parse(_ text: String, _ currency: String) -> Int? {
        let exponent = Currency(alphabeticCode: currency)?.exponent ?? 2
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            !parts[0].isEmpty, parts[0].count <= 12
        else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= exponent, parts.count == 1 || !fraction.isEmpty else { return nil }
        return Int(String(parts[0]) + fraction + String(repeating: "0", count: exponent - fraction.count))
    }
}
