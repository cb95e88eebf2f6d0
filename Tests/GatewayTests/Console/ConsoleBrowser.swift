import Foundation
import Gateway
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A browser for the console's tests: keeps its cookies, reads the forms' CSRF tokens, follows nothing on its own.
final class ConsoleBrowser: @unchecked Sendable {
    let client: any TestClientProtocol
    private let lock = NSLock()
    private var cookies: [String: String] = [:]

    init(_ client: any TestClientProtocol) { self.client = client }

    func get(_ path: String) async throws -> TestResponse {
        try await send(path, method: .get, body: nil)
    }

    /// Posts `fields` url-encoded, with `Origin` when given.
    func post(_ path: String, _ fields: [String: String], origin: String? = nil) async throws -> TestResponse {
        let body = fields.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        return try await send(path, method: .post, body: body, origin: origin)
    }

    /// Gets `path` and posts `fields` to `action` with the page's CSRF token.
    func submit(on path: String, to action: String, _ fields: [String: String]) async throws -> TestResponse {
        let page = try await get(path)
        var fields = fields
        fields["_csrf"] = Self.value(of: "_csrf", in: page.text)
        return try await post(action, fields)
    }

    func cookie(_ name: String) -> String? { lock.withLock { cookies[name] } }
    func setCookie(_ name: String, _ value: String) { lock.withLock { cookies[name] = value } }

    /// A hidden input's value in `html`.
    static func value(of name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    private func send(_ path: String, method: HTTPRequest.Method, body: String?, origin: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        let jar = lock.withLock { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if !jar.isEmpty { headers[.cookie] = jar }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if let origin { headers[.origin] = origin }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        lock.withLock {
            for line in response.headers[values: .setCookie] {
                let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                let name = String(pair[0])
                let value = pair.count > 1 ? String(pair[1]) : ""
                if value.isEmpty || line.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
            }
        }
        return response
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

extension TestResponse {
    var location: String? { headers[.location] }
}
