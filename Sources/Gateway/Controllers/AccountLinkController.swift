import Foundation
import GatewayAPI
public import Hummingbird
import Logging

/// The merchant's account link (Terms and Conditions), as ProximityReader's `linkAccount`, `relinkAccount` and
/// `isAccountLinked` use it:
/// - `POST /v1/account-links` (reader token) accepts the terms under ``AccountLinkRule``;
/// - `GET /v1/account-links?deviceId=…` (any of the merchant's credentials) says whether they are accepted; the
///   answer is the same on every device.
public struct AccountLinkController: Sendable {
    private let merchants: MerchantRepository
    private let clock: @Sendable () -> Date

    /// Creates the controller.
    public init(merchants: MerchantRepository, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.merchants = merchants
        self.clock = clock
    }

    /// Adds the routes to `router` (behind an ``Authenticator``).
    public func addRoutes(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/account-links", use: link)
        router.get("v1/account-links", use: status)
    }

    @Sendable func link(request: Request, context: GatewayRequestContext) async throws -> JSONResponse<
        AccountLinkStatus
    > {
        let caller = try context.requireCaller(.readerToken)
        let body = try await request.decode(as: AccountLinkRequest.self, context: context)
        let merchant = try await DomainError.mapped {
            try Device.validate(id: body.deviceId)
            return try await merchants.link(by: caller, deviceId: body.deviceId, relink: body.relink, now: clock())
        }
        context.logger.info(
            "terms accepted",
            metadata: [
                "merchant": "\(merchant.id)", "user": "\(caller.userId ?? "")", "device": "\(body.deviceId)",
                "relink": "\(body.relink)",
            ])
        return JSONResponse(Self.status(merchant))
    }

    @Sendable func status(request: Request, context: GatewayRequestContext) async throws -> JSONResponse<
        AccountLinkStatus
    > {
        let caller = try context.requireCaller(.readerToken, .readerSession, .apiKey)
        if let deviceId = request.uri.queryParameters.get("deviceId") {
            try await DomainError.mapped { try Device.validate(id: deviceId) }
        }
        guard let merchant = try await merchants.merchant(id: caller.merchantId) else {
            throw GatewayAPIError(code: .notFound, message: "the credential's merchant does not exist")
        }
        return JSONResponse(Self.status(merchant))
    }

    private static func status(_ merchant: Merchant) -> AccountLinkStatus {
        AccountLinkStatus(
            merchantId: merchant.id, isLinked: merchant.isAccountLinked, linkedAt: merchant.termsAcceptedAt,
            linkedBy: merchant.termsAcceptedBy)
    }
}
