import Crypto
import Foundation

/// The claims of tokens whose signature this node has already verified, by the token's SHA-256, so a reader
/// session's every request does not pay for an ES256 verification (about a tenth of a millisecond of CPU).
///
/// Only the signature check is cached: expiry and the claims' kind are judged on every use, by the caller's clock.
/// Holds hashes, never the tokens themselves, and at most ``capacity`` of them: when full it starts over, which
/// costs a verification per token again and nothing else.
final class VerifiedTokenCache: @unchecked Sendable {
    /// The most tokens remembered.
    static let capacity = 4_096

    private let lock = NSLock()
    private var claims: [SHA256Digest: ReaderClaims] = [:]

    /// The claims of `token` if its signature was verified before.
    func claims(of token: String) -> ReaderClaims? {
        let key = SHA256.hash(data: Data(token.utf8))
        return lock.withLock { claims[key] }
    }

    /// Remembers that `token`, whose signature just verified, carries `verified`.
    func remember(_ token: String, _ verified: ReaderClaims) {
        let key = SHA256.hash(data: Data(token.utf8))
        lock.withLock {
            if claims.count >= Self.capacity { claims.removeAll(keepingCapacity: true) }
            claims[key] = verified
        }
    }
}
