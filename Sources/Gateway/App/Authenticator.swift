import Foundation
import GatewayAPI
public import Hummingbird
import HTTPTypes

/// Resolves the caller of every request behind it from `Authorization: Bearer …` and sets
/// ``GatewayRequestContext/caller``:
/// - `sk_…` → the merchant's API key (``Caller/Credential/apiKey``); unknown or revoked → `unauthorized`;
/// - anything else → a JWT this gateway signed: a reader token or a reader session; a bad signature, another key or
///   garbage → `invalidReaderToken`, past its expiry → `tokenExpired`;
/// - no or a non-bearer header → `unauthorized`.
///
/// Routes then ask for the credential they accept with ``GatewayRequestContext/requireCaller(_:)``. Nothing here
/// logs a credential.
public struct Authenticator: RouterMiddleware {
    /// The context the gateway's routes use.
    public typealias Context = GatewayRequestContext

    private let apiKeys: APIKeyRepository
    private let tokens: ReaderTokenAuthority
    private let usage = APIKeyUsage()
    private let clock: @Sendable () -> Date

    /// Creates the middleware.
    public init(
        apiKeys: APIKeyRepository, tokens: ReaderTokenAuthority, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.apiKeys = apiKeys
        self.tokens = tokens
        self.clock = clock
    }

    /// Authenticates, then runs the rest of the chain.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.caller = try await caller(authorization: request.headers[.authorization])
        return try await AuditLog.$clientAddress.withValue(context.remoteAddress) { try await next(request, context) }
    }

    /// The caller an `Authorization` header value stands for.
    /// - Throws: ``GatewayAPIError`` `unauthorized`, `invalidReaderToken` or `tokenExpired`.
    public func caller(authorization: String?) async throws -> Caller {
        guard let authorization, let credential = Self.bearerCredential(authorization) else {
            throw GatewayAPIError(code: .unauthorized, message: "an Authorization: Bearer credential is required")
        }
        guard credential.hasPrefix(APIKey.secretPrefix) else { return try await tokens.verify(credential) }
        guard let key = try await apiKeys.key(for: APIKey.Secret(credential)) else {
            throw GatewayAPIError(code: .unauthorized, message: "the API key is unknown or revoked")
        }
        // "Last used" to the minute: one write a minute per key, not one per request.
        let now = clock()
        if usage.isDue(key.id, now: now) { try await apiKeys.recordUse(id: key.id, now: now) }
        return Caller(credential: .apiKey, merchantId: key.merchantId, userId: nil)
    }

    /// The credential of `Bearer <credential>` (the scheme in any case, spaces and tabs around the credential
    /// dropped), or nil. Over UTF-8 bytes: it runs on every request, and Character counting, `lowercased()` and
    /// Foundation's `trimmingCharacters` are costly on a 300-byte reader token.
    static func bearerCredential(_ header: String) -> String? {
        let bytes = Array(header.utf8)
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ byte, expected in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
            })
        else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = scheme.count
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// When each API key's use was last written, so that a busy key costs one write a minute.
final class APIKeyUsage: @unchecked Sendable {
    private let lock = NSLock()
    private var written: [String: Date] = [:]

    /// Whether `id`'s use should be written at `now` (and notes that it will be).
    func isDue(_ id: String, now: Date) -> Bool {
        lock.withLock {
            if let last = written[id], now.timeIntervalSince(last) < 60 { return false }
            written[id] = now
            return true
        }
    }
}
