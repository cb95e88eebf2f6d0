public import Foundation
public import GatewayAPI
import JWTKit

/// Signs and verifies the gateway's JWTs with the key file's ES256 key (`kid` = ``GatewayKeys/signingKeyId``):
/// reader tokens for merchant users and reader sessions for prepared devices.
///
/// Verification maps every failure to the API's codes: a bad signature, another key, a malformed token or unknown
/// claims → ``GatewayAPIError/Code/invalidReaderToken``; a valid token past its expiry (by the injected clock) →
/// ``GatewayAPIError/Code/tokenExpired``; a token covered by a revocation (``TokenRevocations``) →
/// ``GatewayAPIError/Code/tokenRevoked``.
public struct ReaderTokenAuthority: Sendable {
    /// The longest session a prepare issues.
    public static let sessionLifetime: TimeInterval = 12 * 60 * 60

    private let collection: JWTKeyCollection
    private let keyId: String
    private let clock: @Sendable () -> Date
    private let verified = VerifiedTokenCache()
    private let revocations: TokenRevocations?

    /// Creates an authority with the signing key of `keys`, refusing what `revocations` revokes.
    public init(
        keys: GatewayKeys, revocations: TokenRevocations? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) async {
        collection = JWTKeyCollection()
        keyId = keys.signingKeyId
        self.revocations = revocations
        self.clock = clock
        // The signing key is a valid P-256 key by construction, so wrapping it cannot fail.
        if let key = try? ES256PrivateKey(backing: keys.signingKey) {
            await collection.add(ecdsa: key, kid: JWKIdentifier(string: keys.signingKeyId))
        }
    }

    /// Issues a reader token for `userId` of `merchantId`, valid for `lifetime` seconds from now, naming
    /// `issuer` (the gateway's base URL) as its issuer.
    public func issueReaderToken(
        merchantId: String, userId: String, isAdmin: Bool, allowsRelinking: Bool, lifetime: TimeInterval,
        issuer: String? = nil
    ) async throws(GatewayAPIError) -> ReaderToken {
        let (iat, exp) = times(lifetime)
        let claims = ReaderClaims(
            kind: .readerToken, iss: issuer, mid: merchantId, sub: userId, role: isAdmin ? "admin" : "staff",
            rel: allowsRelinking,
            did: nil, iat: iat, exp: exp)
        return ReaderToken(
            token: try await sign(claims), merchantId: merchantId, userId: userId, allowsRelinking: allowsRelinking,
            expiresAt: Date(timeIntervalSince1970: TimeInterval(exp)))
    }

    /// Issues a reader session for `deviceId` of `merchantId`.
    public func issueSession(
        merchantId: String, deviceId: String, lifetime: TimeInterval = ReaderTokenAuthority.sessionLifetime
    ) async throws(GatewayAPIError) -> ReaderProvisioning.ReaderSession {
        let (iat, exp) = times(lifetime)
        let claims = ReaderClaims(
            kind: .session, iss: nil, mid: merchantId, sub: nil, role: nil, rel: nil, did: deviceId, iat: iat, exp: exp)
        return ReaderProvisioning.ReaderSession(
            token: try await sign(claims), expiresAt: Date(timeIntervalSince1970: TimeInterval(exp)))
    }

    /// The caller a reader token or session stands for.
    /// - Throws: ``GatewayAPIError/Code/invalidReaderToken``, ``GatewayAPIError/Code/tokenExpired`` or
    ///   ``GatewayAPIError/Code/tokenRevoked``.
    public func verify(_ token: String) async throws(GatewayAPIError) -> Caller {
        let claims: ReaderClaims
        if let known = verified.claims(of: token) {
            claims = known
        } else {
            do {
                claims = try await collection.verify(token, as: ReaderClaims.self)
            } catch {
                // The library's error can quote parts of the token: keep only the fact.
                throw GatewayAPIError(code: .invalidReaderToken, message: "the token is not one this gateway signed")
            }
            verified.remember(token, claims)
        }
        guard Int(clock().timeIntervalSince1970.rounded(.down)) < claims.exp else {
            throw GatewayAPIError(code: .tokenExpired, message: "the token has expired")
        }
        if let revocations,
            revocations.isRevoked(
                merchantId: claims.mid, deviceId: claims.did, userId: claims.sub, issuedAt: claims.iat)
        {
            throw GatewayAPIError(code: .tokenRevoked, message: "the token was revoked")
        }
        switch claims.kind {
        case .readerToken:
            guard let userId = claims.sub, let role = claims.role, let relinking = claims.rel else { break }
            return Caller(
                credential: .readerToken, merchantId: claims.mid, userId: userId, isAdmin: role == "admin",
                allowsRelinking: relinking)
        case .session:
            guard let deviceId = claims.did else { break }
            return Caller(credential: .readerSession, merchantId: claims.mid, deviceId: deviceId)
        }
        throw GatewayAPIError(code: .invalidReaderToken, message: "the token lacks a claim its kind needs")
    }

    private func times(_ lifetime: TimeInterval) -> (iat: Int, exp: Int) {
        let now = Int(clock().timeIntervalSince1970.rounded(.down))
        return (now, now + Int(lifetime.rounded(.down)))
    }

    private func sign(_ claims: ReaderClaims) async throws(GatewayAPIError) -> String {
        do {
            return try await collection.sign(claims, kid: JWKIdentifier(string: keyId))
        } catch {
            throw GatewayAPIError(code: .internalError, message: "the token could not be signed")
        }
    }
}
