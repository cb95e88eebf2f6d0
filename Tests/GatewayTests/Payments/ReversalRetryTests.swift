import _SQLStorage
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import HummingbirdTesting
import Issuer
import Testing
import TestMode

@Suite("Reversals retried until acknowledged, over ISO 8583 on TCP")
struct ReversalRetryTests {
    @Test("a void while the issuer is down stays due and is sent once it is back", arguments: TestDatabases.kinds)
    func voidWhileIssuerDown(_ kind: TestDatabases.Kind) async throws {
        // The issuer keeps its accounts in a database of its own, so they outlive its restart.
        try await TestDatabases.with(.sqlite, migrating: [IssuerSchema.migrator]) { issuerDatabase in
            let keys = try IssuerKeys.test
            let repository = SQLIssuerRepository(database: issuerDatabase)
            try await TestCards.seed(repository, keys: keys)
            let host = IssuerHost(keys: keys, repository: repository)
            let card = try #require(TestCards.card(.approve, .visa))
            let keyedPAN = keys.keyedHash(of: try PAN(card.pan))
            let first = LiveIssuer.server(host)
            let port = try await LiveIssuer.withRunning(first) { try await first.port }
            // The port is free again; the gateway's link keeps knocking on it, at most 2 s apart: an issuer timeout
            // well beyond that lets the first payment wait for the link to reconnect, even on a machine loaded by the
            // whole test run (3 s once was not enough there).
            try await LiveGateway.with(
                kind, issuer: .testIssuer(host: "127.0.0.1", port: port), issuerTimeout: .seconds(8)
            ) { gateway in
                let payment = try await LiveIssuer.withRunning(Self.server(host, port: port)) {
                    // The link retries the port with a backoff of at most 2 s: let it connect first.
                    try await Task.sleep(for: .milliseconds(2_500))
                    let answer = try await gateway.pay(
                        try gateway.tapper(card), minorUnits: 800, captureMethod: .manual)
                    return try #require(try? answer.decoded(Payment.self), "\(answer.text)")
                }
                #expect(payment.status == .requiresCapture)
                #expect(try await repository.account(keyedPAN)?.availableBalance == TestCards.balance - 800)
                let voided = try await gateway.post("/v1/payments/\(payment.id)/void", [String: String]())
                #expect(try voided.decoded(Payment.self).status == .canceled, "\(voided.text)")
                // Down: nothing reversed yet, the reversal is kept (encrypted) and due.
                #expect(try await repository.account(keyedPAN)?.availableBalance == TestCards.balance - 800)
                #expect(try await Self.reversalPending(gateway, payment.id))
                try await LiveIssuer.withRunning(Self.server(host, port: port)) {
                    // The gateway's clock is the test's: let retry times come by advancing it.
                    for _ in 0..<200 where try await Self.reversalPending(gateway, payment.id) {
                        gateway.clock.advance(by: 1)
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                let audit = try await gateway.application.database.query(
                    "SELECT action, detail, at FROM audit_log WHERE entity_id = $1 ORDER BY id", [.text(payment.id)])
                let trail = try audit.map {
                    "\(try $0.text("action")) \(try $0.text("detail")) \(try $0.integer("at"))"
                }
                #expect(try await !Self.reversalPending(gateway, payment.id), "\(trail)")
                #expect(try await repository.account(keyedPAN)?.availableBalance == TestCards.balance)
            }
        }
    }

    static func server(_ host: IssuerHost, port: Int) -> IssuerServer {
        IssuerServer(
            issuer: host, configuration: IssuerServer.Configuration(host: "127.0.0.1", port: port),
            logger: LiveIssuer.logger("test.issuer-server"))
    }

    static func reversalPending(_ gateway: LiveGateway, _ id: String) async throws -> Bool {
        let row = try await gateway.application.database.query(
            "SELECT reversal_message FROM payments WHERE id = $1", [.text(id)]
        ).first
        return try row?.optionalBlob("reversal_message") != nil
    }
}
