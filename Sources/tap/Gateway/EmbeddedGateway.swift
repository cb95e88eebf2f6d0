import CardEmulator
import EMV
import Foundation
import Gateway
import GatewayAPI
import GatewayTesting
import Logging
import NIOCore
import NIOHTTP1

/// A whole gateway in this process, as `tap demo` and `tap bench gateway` use it: started on a free loopback port
/// over a fresh data directory (durable SQLite, or the PostgreSQL database given; the in-process issuer with the test
/// cards), with one onboarded merchant and one prepared device, the way a merchant's server and a reader SDK set
/// themselves up, and optionally a history of past payments.
struct EmbeddedGateway: Sendable {
    let client: LoadClient
    let merchantId: String
    let deviceId: String
    /// The prepared device's provisioning: the PSP's HPKE key and the reader session.
    let provisioning: ReaderProvisioning

    /// Starts the gateway (on `databaseURL`, or SQLite), onboards, writes `pastPayments` past payments of the
    /// merchant, runs `body`, then stops the gateway and removes its data directory.
    static func with<Result: Sendable>(
        connections: Int, databaseURL: String? = nil, pastPayments: Int = 0,
        progress: @escaping @Sendable (String) -> Void, _ body: @Sendable (EmbeddedGateway) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "tap.gateway")
        logger.logLevel = .critical
        return try await RunningGateway.with(logger: logger) { directory in
            GatewayConfiguration(
                port: 0, dataDirectory: directory, databaseURL: databaseURL,
                caPublicKeys: try CardProfile.testCAPublicKeys)
        } _: { running in
            progress("gateway listening on 127.0.0.1:\(running.port), data in \(running.dataDirectory.path)")
            let client = LoadClient(host: "127.0.0.1", port: running.port, connections: connections)
            do {
                let target = try await onboard(running.application, client: client)
                if pastPayments > 0 {
                    let history = PaymentHistory(
                        count: pastPayments, merchantId: target.merchantId, deviceId: target.deviceId, now: Date())
                    try await history.write(to: running.application.database) { written in
                        if written % 500_000 == 0 || written == pastPayments {
                            progress("history: \(written) of \(pastPayments) past payments written")
                        }
                    }
                }
                let result = try await body(target)
                try await client.shutdown()
                return result
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    /// A merchant with an admin and an API key (in the database, as `tap merchant` makes them), then over HTTP: a
    /// reader token, the accepted terms, and a prepared device.
    private static func onboard(_ gateway: GatewayApplication, client: LoadClient) async throws -> EmbeddedGateway {
        let merchant = try await TestMerchant.onboard(in: gateway.database, actor: "tap")
        let token = try await client.post(
            ReaderToken.self, "/v1/reader-tokens", bearer: merchant.apiKey, ReaderTokenRequest(userId: merchant.adminId)
        )
        let deviceId = "reader-\(UUID().uuidString.prefix(8).lowercased())"
        _ = try await client.post(
            AccountLinkStatus.self, "/v1/account-links", bearer: token.token, AccountLinkRequest(deviceId: deviceId))
        let prepared = try await client.send(
            .POST, "/v1/devices/\(deviceId)/prepare", headers: [("Authorization", "Bearer \(token.token)")])
        guard prepared.status == 200,
            let provisioning = try PrepareProgress.lines(in: Data(prepared.body.readableBytesView)).last?.provisioning
        else { throw CommandFailure("prepare failed with status \(prepared.status)") }
        return EmbeddedGateway(client: client, merchantId: merchant.id, deviceId: deviceId, provisioning: provisioning)
    }
}

extension LoadClient {
    /// `POST path` with `body` as the API's JSON, expecting a 2xx answer decoding as `T`.
    func post<T: Decodable>(_ type: T.Type, _ path: String, bearer: String, _ body: some Encodable) async throws -> T {
        let answer = try await send(
            .POST, path, headers: [("Authorization", "Bearer \(bearer)")],
            body: ByteBuffer(bytes: Array(try JSONEncoder.gatewayAPI.encode(body))))
        guard (200..<300).contains(answer.status) else {
            throw CommandFailure("\(path) answered \(answer.status): \(String(buffer: answer.body))")
        }
        return try JSONDecoder.gatewayAPI.decode(T.self, from: Data(answer.body.readableBytesView))
    }
}
