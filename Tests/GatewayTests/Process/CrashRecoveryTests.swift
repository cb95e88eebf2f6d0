import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import Issuer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `kill -9` of a `tap serve` process in the middle of a stream of authorizations, then a restart on the same data:
/// what was acknowledged stays as acknowledged, what was in flight is failed and reversed, and the issuer's books
/// (in the same database: the in-process issuer) agree with the payments.
@Suite(
    "Process: kill -9 of tap serve during authorizations", .serialized,
    .enabled(if: TapBinary.shouldRun, TapBinary.skipReason))
struct CrashRecoveryTests {
    /// Concurrent approving workers, each with its own load-test card so its ATCs reach the issuer in order.
    static let workers = 4
    /// How many acknowledged payments there are at least before the kill.
    static let acknowledgedBeforeKill = 12
    /// Most payments one worker sends (the stream ends earlier, at the kill); its amounts stay far below a balance.
    static let paymentsPerWorker = 200

    @Test(
        "kill -9 during a stream of authorizations, restart: acknowledged payments kept, in-flight ones failed and "
            + "reversed, the issuer's books agree, acknowledged requests replay",
        arguments: TestDatabases.kinds)
    func killDuringAuthorizations(_ kind: TestDatabases.Kind) async throws {
        try await ProcessStore.with(kind, killAndRestart)
    }

    private func killAndRestart(_ store: ProcessStore) async throws {
        let logs = try ProcessLogs()
        defer { logs.close() }
        // A long issuer timeout keeps the issuer-timeout card's payment in flight until the kill; recovering at once
        // after the restart is right for a lone node.
        let serveArguments = store.arguments + ["--issuer-timeout", "10", "--recover-after", "0"]
        let cards = Array(TestCards.loadTestCards.prefix(Self.workers))
        let timeoutCard = try #require(TestCards.card(.issuerTimeout, .visa))
        let tappers = try cards.map(ProcessMerchant.tapper)
        let ledger = PaymentLedger()

        try await GatewayClient.withHTTPClient { http in
            // First run: onboard, stream, kill.
            let (first, firstURL) = try await TapProcess.serve(serveArguments, name: "serve-1", logs: logs)
            let client = GatewayClient(http: http, baseURL: firstURL)
            let merchant = try await ProcessMerchant.onboard(store: store.arguments, client: client, logs: logs)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (worker, card) in cards.enumerated() {
                    group.addTask {
                        try await Self.stream(
                            card, tapper: tappers[worker], worker: worker, merchant: merchant, client: client,
                            ledger: ledger)
                    }
                }
                group.addTask {
                    let request = try await merchant.paymentRequest(
                        try ProcessMerchant.tapper(timeoutCard), minorUnits: 777)
                    if let reply = try? await client.post(
                        "/v1/payments", bearer: merchant.session, body: request, idempotencyKey: UUID().uuidString)
                    {
                        await ledger.note("the issuer-timeout payment was answered (\(reply.status)) before the kill")
                    }
                }
                let ready = try await Self.waitUntilInFlight(client: client, merchant: merchant, ledger: ledger)
                await ledger.startKilling()
                first.send(SIGKILL)
                try await group.waitForAll()
                #expect(ready, "the stream never had \(Self.acknowledgedBeforeKill) acknowledged payments and one in flight")
            }
            #expect(try await first.ending() == .signal(SIGKILL))
            let acknowledged = await ledger.acknowledged
            for problem in await ledger.problems { Issue.record(Comment(rawValue: problem)) }

            // What the crash left: every acknowledged payment as acknowledged, the rest in flight or finished.
            let atKill = try await Self.statuses(store)
            for entry in acknowledged {
                #expect(atKill[entry.payment.id] == entry.payment.status.rawValue, "\(entry.payment.id) at the kill")
            }
            let inFlight = Set(atKill.filter { $0.value == PaymentStatus.processing.rawValue }.keys)
            #expect(!inFlight.isEmpty, "no payment was in flight at the kill")

            // Second run on the same data: the sweep fails and reverses what was in flight.
            let (second, secondURL) = try await TapProcess.serve(serveArguments, name: "serve-2", logs: logs)
            let restarted = GatewayClient(http: http, baseURL: secondURL)
            try await Self.waitUntilSettled(inFlight, client: restarted, merchant: merchant)
            for entry in acknowledged {
                let reply = try await restarted.get("/v1/payments/\(entry.payment.id)", bearer: merchant.apiKey)
                let payment = try reply.decoded(Payment.self)
                #expect(payment.status == entry.payment.status && payment.amount == entry.payment.amount)
                // The same request with the same key: the stored answer, byte for byte.
                let retry = try await restarted.post(
                    "/v1/payments", bearer: merchant.session, body: entry.request, idempotencyKey: entry.idempotencyKey)
                #expect(retry.status == 201 && retry.body == entry.response, "retry of \(entry.payment.id)")
                #expect(retry.headers["Idempotent-Replayed"].first == "true")
            }
            // The restarted gateway serves, and the card's next ATC is accepted after the lost ones.
            let after = try await restarted.post(
                "/v1/payments", bearer: merchant.session,
                body: try await merchant.paymentRequest(tappers[0], minorUnits: 4_321), idempotencyKey: "after-restart")
            #expect(after.status == 201 && (try? after.decoded(Payment.self).status) == .succeeded, "\(after.text)")
            second.send(SIGTERM)
            #expect(try await second.ending() == .exit(0))

            try await Self.checkBooks(
                store, inFlight: inFlight,
                acknowledged: acknowledged, cards: cards + [timeoutCard])
        }
        #expect(logs.cardDataFindings() == [], "card data in the processes' logs")
    }

    /// One worker: taps its card and pays, again and again, recording each acknowledged payment, until the server
    /// is gone (or `paymentsPerWorker`).
    private static func stream(
        _ card: TestCard, tapper: TestCardTapper, worker: Int, merchant: ProcessMerchant, client: GatewayClient,
        ledger: PaymentLedger
    ) async throws {
        for index in 0..<paymentsPerWorker {
            // Distinct small amounts, so the books check sums something real and no balance runs out.
            let amount = 100 + worker + 10 * (index % 10)
            let key = "worker-\(worker)-\(index)-\(UUID().uuidString)"
            let request = try await merchant.paymentRequest(tapper, minorUnits: amount)
            let reply: GatewayClient.Reply
            do {
                reply = try await client.post("/v1/payments", bearer: merchant.session, body: request, idempotencyKey: key)
            } catch {
                if await !ledger.isKilling { await ledger.note("worker \(worker) failed before the kill: \(error)") }
                return
            }
            guard reply.status == 201, let payment = try? reply.decoded(Payment.self), payment.status == .succeeded
            else {
                await ledger.note("worker \(worker): \(reply.status) \(reply.text)")
                return
            }
            await ledger.record(
                PaymentLedger.Entry(payment: payment, card: card, idempotencyKey: key, request: request, response: reply.body))
        }
    }

    /// Waits (at most 90 s) until enough payments were acknowledged and one is stored in flight.
    private static func waitUntilInFlight(
        client: GatewayClient, merchant: ProcessMerchant, ledger: PaymentLedger
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            if await ledger.acknowledged.count >= acknowledgedBeforeKill,
                let reply = try? await client.get("/v1/payments?status=processing&limit=100", bearer: merchant.apiKey),
                let list = try? reply.decoded(PaymentList.self), !list.data.isEmpty
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits (at most 60 s) until the restarted gateway shows every payment that was in flight as failed and none
    /// as processing.
    private static func waitUntilSettled(
        _ inFlight: Set<String>, client: GatewayClient, merchant: ProcessMerchant
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            var settled = true
            for id in inFlight {
                let reply = try await client.get("/v1/payments/\(id)", bearer: merchant.apiKey)
                if try reply.decoded(Payment.self).status != .failed { settled = false }
            }
            let processing = try await client.get("/v1/payments?status=processing&limit=100", bearer: merchant.apiKey)
            if settled, try processing.decoded(PaymentList.self).data.isEmpty { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the restarted gateway did not fail every payment that was in flight within 60 s")
    }

    /// Every payment's status, read from the database.
    private static func statuses(_ store: ProcessStore) async throws -> [String: String] {
        try await store.withDatabase { database in
            var statuses: [String: String] = [:]
            for row in try await database.query("SELECT id, status FROM payments", []) {
                statuses[try row.text("id")] = try row.text("status")
            }
            return statuses
        }
    }

    /// After the second run: nothing processing, what was in flight failed with its reversal acknowledged, and each
    /// card's balance at the issuer is the initial one less its succeeded payments.
    private static func checkBooks(
        _ store: ProcessStore, inFlight: Set<String>, acknowledged: [PaymentLedger.Entry], cards: [TestCard]
    ) async throws {
        try await store.withDatabase { database in
            let rows = try await database.query(
                """
                SELECT id, status, amount, card_bin, card_last4, failure_code, reversal_message, next_reversal_at
                FROM payments
                """, [])
            var succeeded: [(bin: String, last4: String, amount: Int)] = []
            for row in rows {
                let id = try row.text("id")
                let status = try row.text("status")
                #expect(status != PaymentStatus.processing.rawValue, "\(id) is still processing")
                if status == PaymentStatus.succeeded.rawValue {
                    succeeded.append((try row.text("card_bin"), try row.text("card_last4"), try row.integer("amount")))
                }
                guard inFlight.contains(id) else { continue }
                #expect(status == PaymentStatus.failed.rawValue, "\(id) was in flight")
                #expect(try row.optionalText("failure_code") == "issuerUnavailable")
                #expect(try row.optionalBlob("reversal_message") == nil, "\(id): reversal not acknowledged")
                #expect(try row.optionalInteger("next_reversal_at") == nil, "\(id): reversal still due")
                let actions = try await database.query(
                    "SELECT action FROM audit_log WHERE entity_id = $1", [.text(id)]
                ).map { try $0.text("action") }
                #expect(actions.contains("reversed"), "\(id): \(actions)")
            }
            #expect(acknowledged.allSatisfy { entry in rows.contains { (try? $0.text("id")) == entry.payment.id } })
            let keys = try IssuerKeys.test
            let issuer = SQLIssuerRepository(database: database)
            for card in cards {
                let spent = succeeded.filter { card.pan.hasPrefix($0.bin) && card.pan.hasSuffix($0.last4) }
                    .reduce(0) { $0 + $1.amount }
                let balance = try await issuer.account(keys.keyedHash(of: try PAN(card.pan)))?.availableBalance
                #expect(balance == TestCards.balance - spent, "\(card): the issuer's balance against the payments")
            }
        }
    }
}
