import _SQLStorage
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import Issuer
import Testing
import TestMode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `tap serve` process stopped in the middle of a stream of authorizations — killed (`kill -9`) or asked to stop
/// (SIGTERM) — then restarted on the same data: what was acknowledged stays as acknowledged, what was in flight is
/// failed and reversed (after a kill) or finished (after SIGTERM), and the issuer's books (in the same database: the
/// in-process issuer) agree with the payments.
@Suite(
    "Process: tap serve stopped during authorizations", .serialized,
    .enabled(if: TapBinary.shouldRun, TapBinary.skipReason))
struct CrashRecoveryTests {
    /// How the first run ends.
    enum Stop: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// SIGKILL: nothing runs to its end.
        case kill
        /// SIGTERM: stop accepting, finish what is in flight, exit 0.
        case terminate

        var signal: Int32 { self == .kill ? SIGKILL : SIGTERM }
        var testDescription: String { self == .kill ? "kill -9" : "SIGTERM" }
    }

    /// Concurrent approving workers, each with its own load-test card so its ATCs reach the issuer in order.
    static let workers = 4
    /// How many acknowledged payments there are at least before the stop.
    static let acknowledgedBeforeStop = 12
    /// Most payments one worker sends (the stream ends earlier, at the stop); its amounts stay far below a balance.
    static let paymentsPerWorker = 200

    /// Acknowledged payments are kept as acknowledged, nothing stays in flight (a kill's are failed and reversed),
    /// the issuer's books agree, and acknowledged requests replay after the restart.
    @Test(
        "tap serve stopped during a stream of authorizations, then restarted",
        arguments: TestDatabases.kinds, Stop.allCases)
    func stopDuringAuthorizations(_ kind: TestDatabases.Kind, _ stop: Stop) async throws {
        try await ProcessStore.with(kind) { store in try await stopAndRestart(store, stop) }
    }

    private func stopAndRestart(_ store: ProcessStore, _ stop: Stop) async throws {
        let logs = try ProcessLogs()
        defer { logs.close() }
        // After a kill, a long issuer timeout keeps an issuer-timeout card's payment in flight until the kill; after
        // SIGTERM, the gateway waits for it, so shorter. Recovering at once after the restart is right for a lone node.
        let issuerTimeout = stop == .kill ? "10" : "2"
        let serveArguments = store.arguments + ["--issuer-timeout", issuerTimeout, "--recover-after", "0"]
        let cards = Array(TestCards.loadTestCards.prefix(Self.workers))
        let timeoutCard = try #require(TestCards.card(.issuerTimeout, .visa))
        let tappers = try cards.map(ProcessMerchant.tapper)
        let ledger = PaymentLedger()

        try await GatewayClient.withHTTPClient { http in
            // First run: onboard, stream, stop.
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
                    try await Self.streamUnanswered(timeoutCard, merchant: merchant, client: client, ledger: ledger)
                }
                let ready = try await Self.waitUntilInFlight(client: client, merchant: merchant, ledger: ledger)
                await ledger.startStopping()
                first.send(stop.signal)
                try await group.waitForAll()
                #expect(
                    ready, "the stream never had \(Self.acknowledgedBeforeStop) acknowledged payments and one in flight"
                )
            }
            #expect(try await first.ending() == (stop == .kill ? .signal(SIGKILL) : .exit(0)))
            let acknowledged = await ledger.acknowledged
            for problem in await ledger.problems { Issue.record(Comment(rawValue: problem)) }

            // What the stop left: every acknowledged payment as acknowledged; in flight only after a kill.
            let atStop = try await Self.statuses(store)
            for entry in acknowledged {
                #expect(atStop[entry.payment.id] == entry.payment.status.rawValue, "\(entry.payment.id) at the stop")
            }
            let inFlight = Set(atStop.filter { $0.value == PaymentStatus.processing.rawValue }.keys)
            switch stop {
            case .kill: #expect(!inFlight.isEmpty, "no payment was in flight at the kill")
            case .terminate: #expect(inFlight.isEmpty, "SIGTERM left payments in flight")
            }

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
                #expect(retry.isReplayed)
            }
            // A request the kill cut off, retried with its key: the answer its payment ended with (failed and
            // reversed), not a refusal of its spent read nor a key in use forever.
            for cutOff in await ledger.unanswered where stop == .kill {
                let retry = try await restarted.post(
                    "/v1/payments", bearer: merchant.session, body: cutOff.request,
                    idempotencyKey: cutOff.idempotencyKey)
                #expect(retry.status == 504 && retry.problem?.code == "issuerUnavailable", "\(retry.text)")
                #expect(retry.isReplayed)
            }
            if stop == .kill { #expect(await !ledger.unanswered.isEmpty, "the kill cut off no request") }
            // The restarted gateway serves, and the card's next ATC is accepted after the lost ones.
            let after = try await restarted.post(
                "/v1/payments", bearer: merchant.session,
                body: try await merchant.paymentRequest(tappers[0], minorUnits: 4_321), idempotencyKey: "after-restart")
            #expect(after.status == 201 && (try? after.decoded(Payment.self).status) == .succeeded, "\(after.text)")
            second.send(SIGTERM)
            #expect(try await second.ending() == .exit(0))

            try await Self.checkBooks(store, inFlight: inFlight, cards: cards + [timeoutCard])
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
                reply = try await client.post(
                    "/v1/payments", bearer: merchant.session, body: request, idempotencyKey: key)
            } catch {
                if await !ledger.isStopping { await ledger.note("worker \(worker) failed before the stop: \(error)") }
                return
            }
            guard reply.status == 201, let payment = try? reply.decoded(Payment.self), payment.status == .succeeded
            else {
                await ledger.note("worker \(worker): \(reply.status) \(reply.text)")
                return
            }
            await ledger.record(
                PaymentLedger.Entry(
                    payment: payment, card: card, idempotencyKey: key, request: request, response: reply.body))
        }
    }

    /// Pays with an issuer-timeout card again and again (each payment waits out the issuer timeout), so a payment is
    /// in flight whenever the server stops; each answer must be 504 `issuerUnavailable`.
    private static func streamUnanswered(
        _ card: TestCard, merchant: ProcessMerchant, client: GatewayClient, ledger: PaymentLedger
    ) async throws {
        let tapper = try ProcessMerchant.tapper(card)
        for _ in 0..<paymentsPerWorker where await !ledger.isStopping {
            let request = try await merchant.paymentRequest(tapper, minorUnits: 777)
            let key = UUID().uuidString
            do {
                let reply = try await client.post(
                    "/v1/payments", bearer: merchant.session, body: request, idempotencyKey: key)
                if reply.status != 504 || reply.problem?.code != "issuerUnavailable" {
                    await ledger.note("the issuer-timeout card: \(reply.status) \(reply.text)")
                }
            } catch {
                if await !ledger.isStopping { await ledger.note("the issuer-timeout card failed: \(error)") }
                await ledger.record(PaymentLedger.Unanswered(idempotencyKey: key, request: request))
                return
            }
        }
    }

    /// Waits (at most 90 s) until enough payments were acknowledged and one is stored in flight.
    private static func waitUntilInFlight(
        client: GatewayClient, merchant: ProcessMerchant, ledger: PaymentLedger
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            if await ledger.acknowledged.count >= acknowledgedBeforeStop,
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

    /// After the second run: nothing processing; every failed payment (all that were in flight at the stop, and the
    /// issuer-timeout card's) failed for `issuerUnavailable` with its reversal acknowledged; and each card's balance
    /// at the issuer is the initial one less its succeeded payments.
    private static func checkBooks(_ store: ProcessStore, inFlight: Set<String>, cards: [TestCard]) async throws {
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
                #expect(status == PaymentStatus.failed.rawValue || !inFlight.contains(id), "\(id) was in flight")
                guard status == PaymentStatus.failed.rawValue else { continue }
                #expect(try row.optionalText("failure_code") == "issuerUnavailable")
                #expect(try row.optionalBlob("reversal_message") == nil, "\(id): reversal not acknowledged")
                #expect(try row.optionalInteger("next_reversal_at") == nil, "\(id): reversal still due")
                let actions = try await database.query(
                    "SELECT action FROM audit_log WHERE entity_id = $1", [.text(id)]
                ).map { try $0.text("action") }
                #expect(actions.contains("reversed"), "\(id): \(actions)")
            }
            let keys = try store.embeddedIssuerKeys()
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
