import CardEmulator
import EMV
import Foundation
import Gateway
import GatewayAPI
import Logging
import NIOCore
import NIOHTTP1
import TestMode
import _SQLStorage

/// A whole gateway in this process, as `tap demo` and `tap bench gateway` use it: started on a free loopback port
/// over a fresh data directory (durable SQLite, or the PostgreSQL database given; the in-process issuer with the test
/// cards), with one onboarded merchant and one prepared device, the way a merchant's server and a reader SDK set
/// themselves up, and optionally a history of past payments.
struct EmbeddedGateway: Sendable {
    /// A client of the first node, which onboarding used.
    let client: LoadClient
    /// A client of each node (the first node's is ``client``).
    var clients: [LoadClient] = []
    let merchantId: String
    let deviceId: String
    /// The prepared device's provisioning: the PSP's HPKE key and the reader session.
    let provisioning: ReaderProvisioning
    /// The first node's database (for what a benchmark sets up directly, as `tap merchant` would).
    var database: (any SQLDatabase)?

    /// Starts the gateway (on `databaseURL`, or SQLite), onboards, writes `pastPayments` past payments of the
    /// merchant, runs `body`, then stops the gateway and removes its data directory.
    /// With `nodes` above 1 (PostgreSQL only), that many gateways share the database and one key file, as a
    /// scaled-out PSP's nodes do behind a load balancer; the first is onboarded.
    static func with<Result: Sendable>(
        connections: Int, databaseURL: String? = nil, pastPayments: Int = 0, nodes: Int = 1,
        progress: @escaping @Sendable (String) -> Void,
        _ body: @escaping @Sendable (EmbeddedGateway) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "tap.gateway")
        logger.logLevel = .critical
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: shared) }
        return try await withNodes(nodes, logger: logger) { directory in
            GatewayConfiguration(
                port: 0, dataDirectory: nodes > 1 ? shared : directory, databaseURL: databaseURL, issuer: .testIssuer,
                caPublicKeys: try CardProfile.testCAPublicKeys)
        } _: { nodes in
            let running = nodes[0]
            for node in nodes {
                progress("gateway listening on 127.0.0.1:\(node.port), data in \(node.dataDirectory.path)")
            }
            let client = LoadClient(host: "127.0.0.1", port: running.port, connections: connections)
            let others = nodes.dropFirst().map {
                LoadClient(host: "127.0.0.1", port: $0.port, connections: connections)
            }
            let clients = [client] + others
            do {
                var target = try await onboard(running.application, client: client)
                target.clients = clients
                target.database = running.application.database
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
                for client in clients { try await client.shutdown() }
                return result
            } catch {
                for client in clients { try? await client.shutdown() }
                throw error
            }
        }
    }

    /// Runs `body` with `count` gateways serving, each built from `configuration`.
    private static func withNodes<Result: Sendable>(
        _ count: Int, logger: Logger, configuration: @escaping @Sendable (URL) throws -> GatewayConfiguration,
        _ body: @escaping @Sendable ([RunningGateway]) async throws -> Result
    ) async throws -> Result {
        @Sendable func start(_ started: [RunningGateway]) async throws -> Result {
            guard started.count < count else { return try await body(started) }
            return try await RunningGateway.with(logger: logger, configuration: configuration) { running in
                try await start(started + [running])
            }
        }
        return try await start([])
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
