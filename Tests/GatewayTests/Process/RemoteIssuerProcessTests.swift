import _SQLStorage
import ContactlessTesting
import Foundation
import Gateway
import GatewayAPI
import Issuer
import NIOCore
import NIOPosix
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tap serve --issuer HOST:PORT` against a separately started `tap issuer` (ISO 8583 over TCP on the loopback), and
/// the graceful shutdown of both.
@Suite(
    "Process: tap serve against tap issuer over TCP", .serialized,
    .enabled(if: TapBinary.shouldRun, TapBinary.skipReason))
struct RemoteIssuerProcessTests {
    /// A purchase approves; the issuer-timeout card gets 504 issuerUnavailable and fails; SIGTERM stops accepting,
    /// finishes the request in flight, and both ends exit 0.
    @Test("tap serve --issuer against tap issuer, then SIGTERM to both", arguments: TestDatabases.kinds)
    func remoteIssuer(_ kind: TestDatabases.Kind) async throws {
        try await ProcessStore.with(kind, serveAgainstIssuer)
    }

    private func serveAgainstIssuer(_ store: ProcessStore) async throws {
        let logs = try ProcessLogs()
        defer { logs.close() }
        let approving = try #require(TestCards.card(.approve, .visa))
        let silent = try #require(TestCards.card(.issuerTimeout, .visa))
        let silentInFlight = try #require(TestCards.card(.issuerTimeout, .mastercard))

        try await GatewayClient.withHTTPClient { http in
            let (issuer, issuerAddress) = try await TapProcess.issuer(name: "issuer", logs: logs)
            let (serve, url) = try await TapProcess.serve(
                store.arguments + ["--issuer", issuerAddress, "--issuer-timeout", "3"], name: "serve", logs: logs)
            let client = GatewayClient(http: http, baseURL: url)
            let merchant = try await ProcessMerchant.onboard(store: store.arguments, client: client, logs: logs)

            let approved = try await client.post(
                "/v1/payments", bearer: merchant.session,
                body: try await merchant.paymentRequest(try ProcessMerchant.tapper(approving), minorUnits: 1_500),
                idempotencyKey: UUID().uuidString)
            #expect(approved.status == 201, "\(approved.text)")
            let payment = try approved.decoded(Payment.self)
            #expect(payment.status == .succeeded && payment.issuer?.responseCode == "00")

            let timedOut = try await client.post(
                "/v1/payments", bearer: merchant.session,
                body: try await merchant.paymentRequest(try ProcessMerchant.tapper(silent), minorUnits: 1_600),
                idempotencyKey: UUID().uuidString)
            #expect(timedOut.status == 504 && timedOut.problem?.code == "issuerUnavailable", "\(timedOut.text)")
            let failed = try await client.get("/v1/payments?status=failed", bearer: merchant.apiKey)
                .decoded(PaymentList.self).data
            #expect(failed.map(\.amount) == [1_600] && failed.first?.failureCode == "issuerUnavailable")

            // SIGTERM while a request waits for the issuer: the listener closes, the request still gets its answer.
            let request = try await merchant.paymentRequest(
                try ProcessMerchant.tapper(silentInFlight), minorUnits: 1_700)
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            try await withThrowingTaskGroup(of: GatewayClient.Reply.self) { group in
                group.addTask {
                    try await client.post(
                        "/v1/payments", bearer: merchant.session, body: request, idempotencyKey: UUID().uuidString)
                }
                try await Self.waitUntilProcessing(client: client, merchant: merchant)
                serve.send(SIGTERM)
                #expect(try await Self.stopsAccepting(port: port), "still accepting connections after SIGTERM")
                let reply = try #require(try await group.next())
                #expect(reply.status == 504 && reply.problem?.code == "issuerUnavailable", "\(reply.text)")
            }
            #expect(try await serve.ending() == .exit(0), "tap serve after SIGTERM")
            issuer.send(SIGTERM)
            #expect(try await issuer.ending() == .exit(0), "tap issuer after SIGTERM")

            // Nothing half-written: no payment in flight, every failed one reversed (acknowledged by the issuer).
            let rows = try await Self.payments(store)
            #expect(rows.map(\.status).sorted() == ["failed", "failed", "succeeded"])
            for row in rows where row.status == "failed" {
                #expect(!row.reversalPending, "a failed payment's reversal is still due")
            }
        }
        #expect(logs.cardDataFindings() == [], "card data in the processes' logs")
    }

    /// Waits (at most 30 s) until a payment is stored in flight.
    private static func waitUntilProcessing(client: GatewayClient, merchant: ProcessMerchant) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let reply = try await client.get("/v1/payments?status=processing", bearer: merchant.apiKey)
            if try !reply.decoded(PaymentList.self).data.isEmpty { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no payment was in flight within 30 s")
    }

    /// Whether the port refuses new connections within 2 s.
    private static func stopsAccepting(port: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            do {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connect(host: "127.0.0.1", port: port).get()
                try? await channel.close()
            } catch {
                return true
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Every payment's status and whether its reversal is still due, read after the server stopped.
    private static func payments(_ store: ProcessStore) async throws -> [(status: String, reversalPending: Bool)] {
        try await store.withDatabase { database in
            try await database.query("SELECT status, reversal_message, next_reversal_at FROM payments", []).map {
                (
                    try $0.text("status"),
                    try $0.optionalBlob("reversal_message") != nil || $0.optionalInteger("next_reversal_at") != nil
                )
            }
        }
    }
}
