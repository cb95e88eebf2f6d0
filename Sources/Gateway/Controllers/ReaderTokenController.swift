import Foundation
import GatewayAPI
public import Hummingbird
import Logging

/// `POST /v1/reader-tokens` (API key): issues a reader token for one of the merchant's users, with their role and
/// whether it may relink, valid at most 24 hours. The token names the gateway's base URL as the caller reached it
/// (`iss`), so a reader SDK given only the token finds its PSP.
public struct ReaderTokenController: Sendable {
    private let users: MerchantUserRepository
    private let tokens: ReaderTokenAuthority

    /// Creates the controller.
    public init(users: MerchantUserRepository, tokens: ReaderTokenAuthority) {
        self.users = users
        self.tokens = tokens
    }

    /// Adds the route to `router` (behind an ``Authenticator``).
    public func addRoutes(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/reader-tokens", use: issue)
    }

    @Sendable func issue(request: Request, context: GatewayRequestContext) async throws -> JSONResponse<ReaderToken> {
        let caller = try context.requireCaller(.apiKey)
        let body = try await request.decode(as: ReaderTokenRequest.self, context: context)
        let lifetime = body.lifetime ?? ReaderTokenRequest.defaultLifetime
        guard (60...ReaderTokenRequest.maximumLifetime).contains(lifetime) else {
            throw GatewayAPIError(code: .invalidRequest, message: "lifetime must be 60 to 86400 seconds")
        }
        guard let user = try await users.user(id: body.userId, merchantId: caller.merchantId) else {
            throw GatewayAPIError(code: .notFound, message: "the merchant has no user \(body.userId.prefix(40))")
        }
        let token = try await tokens.issueReaderToken(
            merchantId: caller.merchantId, userId: user.id, isAdmin: user.role == .admin,
            allowsRelinking: body.allowsRelinking, lifetime: TimeInterval(lifetime),
            issuer: request.head.authority.map { "http://\($0)" })
        context.logger.info(
            "reader token issued",
            metadata: [
                "merchant": "\(caller.merchantId)", "user": "\(user.id)", "role": "\(user.role.rawValue)",
                "relinking": "\(body.allowsRelinking)", "lifetime": "\(lifetime)",
            ])
        return JSONResponse(token, status: .created)
    }
}
