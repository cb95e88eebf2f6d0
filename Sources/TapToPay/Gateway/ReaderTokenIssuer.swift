import Foundation

/// The PSP a reader token names: the `iss` claim of the JWT, the gateway's base URL. Read without checking the
/// signature, which only the PSP can check (it does, on every call); only an `http` or `https` URL is taken.
struct ReaderTokenIssuer {
    /// The base URL, without a trailing slash.
    let baseURL: String

    /// The issuer of `token`; nil when the token is not a JWT or names no usable URL.
    init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URLDecoded(parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: payload), let issuer = claims.iss,
            let url = URL(string: issuer), url.scheme == "http" || url.scheme == "https", url.host != nil
        else { return nil }
        baseURL = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    }

    private struct Claims: Decodable {
        var iss: String?
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
