import Foundation
import JWTKit

/// The claims of the gateway's two JWTs: a reader token (issued to a merchant user through the merchant's server)
/// and a reader session (issued by prepare to one device).
///
/// Times are whole seconds since 1970. `verify(using:)` checks nothing beyond the signature: expiry is checked by
/// ``ReaderTokenAuthority`` against its injected clock, so tests decide what "now" is.
struct ReaderClaims: JWTPayload, Equatable {
    /// Which of the two tokens this is.
    enum Kind: String, Codable {
        case readerToken = "reader_token"
        case session
    }

    var kind: Kind
    /// The gateway's base URL as the merchant's server reached it (reader tokens): where the reader SDK finds its
    /// PSP, as ProximityReader finds it from the token.
    var iss: String?
    /// The merchant (`mer_…`).
    var mid: String
    /// The merchant user (reader tokens).
    var sub: String?
    /// The user's role (reader tokens).
    var role: String?
    /// Whether relinking is allowed (reader tokens).
    var rel: Bool?
    /// The device (sessions).
    var did: String?
    /// Issued at.
    var iat: Int
    /// Expires at: not accepted at or after this second.
    var exp: Int

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
