import Foundation
import GatewayAPI
public import Hummingbird
import Logging

/// `POST /v1/token-revocations` (API key): revokes a device's reader sessions, a merchant user's reader tokens, or
/// all of the merchant's, issued up to now (``TokenRevocations``).
public struct TokenRevocationController: Sendable {
    private let revocations: TokenRevocations
    private let clock: @Sendable () -> Date

    /// Creates the controller.
    public init(revocations: TokenRevocations, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.revocations = revocations
        self.clock = clock
    }

    /// Adds the route to `router` (behind an ``Authenticator``).
    public func addRoutes(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/token-revocations", use: revoke)
    }

    @Sendable func revoke(request: Request, context: GatewayRequestContext) async throws -> JSONResponse<
        TokenRevocation
    > {
        let caller = try context.requireCaller(.apiKey)
        let body = try await request.decode(as: TokenRevocationRequest.self, context: context)
        let revocation = try await revocations.revoke(
            body, merchantId: caller.merchantId, actor: caller.auditActor, now: clock())
        context.logger.info(
            "tokens revoked",
            metadata: ["merchant": "\(caller.merchantId)", "scope": "\(revocation.scope.rawValue)"])
        return JSONResponse(revocation, status: .created)
    }
}
