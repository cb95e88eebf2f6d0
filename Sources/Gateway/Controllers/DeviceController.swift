import Foundation
import GatewayAPI
public import Hummingbird
import HTTPTypes
import Logging
import NIOCore

/// `POST /v1/devices/{deviceId}/prepare` (reader token): provisions a device for the token's merchant, as
/// ProximityReader's `prepare(using:)` uses it.
///
/// Refused before anything is streamed: an unlinked account (`accountNotLinked`), a fourth merchant on the device
/// within 24 hours (`merchantBlocked` with `clearsAt`). Then the answer is a ``PrepareProgress`` NDJSON stream: a
/// device's first prepare reports each real stage (register the device and its terminal id, generate and store its
/// PIN key, build the reader configuration, issue the session); later prepares send only the final line.
public struct DeviceController: Sendable {
    private let merchants: MerchantRepository
    private let devices: DeviceRepository
    private let keys: GatewayKeys
    private let tokens: ReaderTokenAuthority
    private let policy: ReaderConfigurationPolicy
    private let limit: DeviceMerchantLimit
    private let clock: @Sendable () -> Date
    /// Told of a device's first configuration as it progresses, for the point of sale's readiness.
    private let readers: ReaderHub?

    /// Creates the controller.
    public init(
        merchants: MerchantRepository, devices: DeviceRepository, keys: GatewayKeys, tokens: ReaderTokenAuthority,
        policy: ReaderConfigurationPolicy, limit: DeviceMerchantLimit = .standard,
        clock: @escaping @Sendable () -> Date = { Date() }, readers: ReaderHub? = nil
    ) {
        self.readers = readers
        self.merchants = merchants
        self.devices = devices
        self.keys = keys
        self.tokens = tokens
        self.policy = policy
        self.limit = limit
        self.clock = clock
    }

    /// Adds the route to `router` (behind an ``Authenticator``).
    public func addRoutes(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/devices/:deviceId/prepare", use: prepare)
    }

    @Sendable func prepare(request: Request, context: GatewayRequestContext) async throws -> Response {
        let caller = try context.requireCaller(.readerToken)
        let deviceId = try context.pathParameter("deviceId")
        try await DomainError.mapped { try Device.validate(id: deviceId) }
        guard let merchant = try await merchants.merchant(id: caller.merchantId) else {
            throw GatewayAPIError(code: .notFound, message: "the token's merchant does not exist")
        }
        guard merchant.isAccountLinked else {
            throw GatewayAPIError(code: .accountNotLinked, message: "the merchant has not accepted the terms")
        }
        try await devices.recordMerchantUse(
            deviceId: deviceId, merchantId: merchant.id, limit: limit, actor: caller.auditActor, now: clock())
        let headers: HTTPFields = [.contentType: PrepareProgress.mediaType, .cacheControl: "no-store"]

        if let device = try await devices.device(merchantId: merchant.id, id: deviceId) {
            // Known device: nothing to show progress for; failures are ordinary problems.
            let provisioning = try await provision(
                device: device, merchant: merchant, caller: caller, logger: context.logger
            ) { _ in }
            let line = try PrepareProgress(progress: 100, stage: .sessionIssued, provisioning: provisioning).line()
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: line)))
        }
        let logger = context.logger
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let readers = self.readers
                func send(_ progress: PrepareProgress) async throws {
                    await readers?.configuring(
                        merchantId: merchant.id, readerId: deviceId,
                        progress: progress.error == nil ? progress.progress : nil)
                    try await writer.write(ByteBuffer(bytes: try progress.line()))
                }
                var reached = 0
                do {
                    try await send(PrepareProgress(progress: 0, stage: .started))
                    let device = try await devices.register(
                        merchantId: merchant.id, id: deviceId, actor: caller.auditActor, now: clock())
                    reached = 25
                    try await send(PrepareProgress(progress: reached, stage: .deviceRegistered))
                    let provisioning = try await provision(
                        device: device, merchant: merchant, caller: caller, logger: logger
                    ) { stage in
                        reached += 25
                        try await send(PrepareProgress(progress: reached, stage: stage))
                    }
                    try await send(PrepareProgress(progress: 100, stage: .sessionIssued, provisioning: provisioning))
                } catch {
                    // The status is already sent: the stream ends with the problem instead.
                    let apiError = error as? GatewayAPIError
                    if apiError == nil { logger.error("prepare failed", metadata: ["type": "\(type(of: error))"]) }
                    let problem = Problem(
                        apiError ?? GatewayAPIError(code: .internalError, message: "the device could not be prepared"))
                    try await send(PrepareProgress(progress: reached, error: problem))
                }
                try await writer.finish(nil)
            })
    }

    /// The PIN key, configuration and session of a registered device; `stage` hears of the PIN key and the
    /// configuration as they complete.
    private func provision(
        device: Device, merchant: Merchant, caller: Caller, logger: Logger,
        stage: (PrepareProgress.Stage) async throws -> Void
    ) async throws -> ReaderProvisioning {
        let pinKey = try await devices.pinKey(
            merchantId: merchant.id, deviceId: device.id, keys: keys, actor: caller.auditActor, now: clock())
        try await stage(.pinKeyStored)
        let configuration = try policy.configuration(for: merchant, terminalId: device.terminalId)
        try await stage(.configurationBuilt)
        let session = try await tokens.issueSession(merchantId: merchant.id, deviceId: device.id)
        logger.info(
            "device prepared",
            metadata: [
                "merchant": "\(merchant.id)", "device": "\(device.id)", "terminal": "\(device.terminalId)",
                "cardDataKey": "\(keys.currentCardDataKeyId)", "pinKey": "\(pinKey.id)",
            ])
        return ReaderProvisioning(
            deviceId: device.id, merchantId: merchant.id, terminalId: device.terminalId,
            cardDataKey: .init(keyId: keys.currentCardDataKeyId, publicKey: keys.currentCardDataPublicKey),
            readerConfiguration: configuration, pinKey: pinKey.provisioning, session: session,
            merchantName: merchant.name)
    }
}
