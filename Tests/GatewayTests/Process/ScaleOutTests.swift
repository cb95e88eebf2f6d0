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

/// Three `tap serve` nodes on one PostgreSQL database, a client spreading authorizations over them, and one node
/// killed (`kill -9`) every few seconds and restarted: no acknowledged payment is lost, no request pays twice, every
/// payment in flight at a kill ends failed and reversed (or completed), every request is answered in the end by
/// whichever node it is retried on, and the issuer's books agree with the payments.
@Suite(
    "Process: three gateway nodes on one database, one killed now and then", .serialized,
    .enabled(if: TapBinary.shouldRun && TestDatabases.postgresURL != nil, TapBinary.skipReason))
struct ScaleOutTests {
    static let nodes = 3
    /// Concurrent workers, each with its own load-test card so its ATCs reach the issuer in order.
    static let workers = 4
    /// How long nodes are killed and restarted while the workers pay.
    static let chaos: Duration = .seconds(15)
    /// Time between two kills.
    static let killEvery: Duration = .seconds(3)

    /// One request's end: the answer it finally got, on any node.
    struct Outcome: Sendable {
        let key: String
        let request: Data
        let status: Int
        let body: Data
        let card: TestCard
    }

    actor Ledger {
        private(set) var outcomes: [Outcome] = []
        private(set) var problems: [String] = []
        private(set) var stopping = false
        /// Requests sent again (with their key) after their node went away.
        private(set) var retried = 0
        func record(_ outcome: Outcome) { outcomes.append(outcome) }
        func retry() { retried += 1 }
        func note(_ problem: String) { problems.append(problem) }
        func stop() { stopping = true }
    }

    /// The nodes' processes, replaced as they are killed and restarted.
    actor Cluster {
        private var processes: [TapProcess]
        let urls: [String]
        let arguments: [String]
        let logs: ProcessLogs
        private var restarts = 0

        init(processes: [TapProcess], urls: [String], arguments: [String], logs: ProcessLogs) {
            self.processes = processes
            self.urls = urls
            self.arguments = arguments
            self.logs = logs
        }

        /// Kills node `index` and starts it again on its port.
        func killAndRestart(_ index: Int) async throws {
            processes[index].send(SIGKILL)
            _ = try await processes[index].ending()
            restarts += 1
            let port = String(urls[index].split(separator: ":").last ?? "0")
            let process = try TapProcess(
                ["serve", "--port", port] + arguments, name: "node-\(index)-\(restarts)", logs: logs)
            _ = try await process.line(startingWith: "tap serve: listening on ")
            processes[index] = process
        }

        func stopAll() async throws {
            for process in processes {
                process.send(SIGTERM)
                #expect(try await process.ending() == .exit(0))
            }
        }
    }

    @Test("authorizations spread over three nodes while one is killed every 3 s")
    func killNodesDuringAuthorizations() async throws {
        try await ProcessStore.with(.postgres) { store in
            let logs = try ProcessLogs()
            defer { logs.close() }
            // A node takes a payment another left in flight as abandoned 30 s after it (the issuer timeout plus 30),
            // a restarted node those from before its start after --recover-after: more than the issuer timeout, as
            // nodes sharing a database need.
            let arguments = store.arguments + ["--issuer-timeout", "2", "--recover-after", "5"]
            var processes: [TapProcess] = []
            var urls: [String] = []
            for index in 0..<Self.nodes {
                let (process, url) = try await TapProcess.serve(arguments, name: "node-\(index)", logs: logs)
                processes.append(process)
                urls.append(url)
            }
            let cluster = Cluster(processes: processes, urls: urls, arguments: arguments, logs: logs)
            let cards = Array(TestCards.loadTestCards.suffix(Self.workers))
            let ledger = Ledger()
            try await GatewayClient.withHTTPClient { http in
                let clients = urls.map { GatewayClient(http: http, baseURL: $0) }
                let merchant = try await ProcessMerchant.onboard(store: store.arguments, client: clients[0], logs: logs)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (worker, card) in cards.enumerated() {
                        group.addTask {
                            try await Self.pay(
                                card, worker: worker, merchant: merchant, clients: clients, ledger: ledger)
                        }
                    }
                    let started = ContinuousClock.now
                    var victim = 0
                    while ContinuousClock.now - started < Self.chaos {
                        try await Task.sleep(for: Self.killEvery)
                        try await cluster.killAndRestart(victim % Self.nodes)
                        victim += 1
                    }
                    await ledger.stop()
                    try await group.waitForAll()
                }
                for problem in await ledger.problems { Issue.record(Comment(rawValue: problem)) }
                let outcomes = await ledger.outcomes
                #expect(outcomes.count > 20, "too few payments were made: \(outcomes.count)")
                let failed = outcomes.filter { $0.status == 504 }.count
                print(
                    "scale-out: \(outcomes.count) requests answered, \(failed) failed and reversed after a kill, "
                        + "\(await ledger.retried) sent again to another node")

                // Every request's answer again, from another node: the same bytes.
                for (index, outcome) in outcomes.enumerated() where index % 5 == 0 {
                    let replay = try await clients[(index + 1) % Self.nodes].post(
                        "/v1/payments", bearer: merchant.session, body: outcome.request,
                        idempotencyKey: outcome.key)
                    #expect(replay.status == outcome.status && replay.body == outcome.body, "replay of \(outcome.key)")
                }
                try await Self.waitUntilSettled(clients[0], merchant: merchant)
            }
            try await cluster.stopAll()
            try await Self.checkBooks(store, outcomes: await ledger.outcomes, cards: cards)
            #expect(logs.cardDataFindings() == [], "card data in the processes' logs")
        }
    }

    /// One worker: pays with fresh taps of its card on the nodes in turn until the chaos ends. A request that gets
    /// no answer (its node was killed) is retried with the same key on the next node, for as long as it takes
    /// (`idempotencyKeyInUse` while its payment is in flight), until it has its answer.
    private static func pay(
        _ card: TestCard, worker: Int, merchant: ProcessMerchant, clients: [GatewayClient], ledger: Ledger
    ) async throws {
        // A card with keys for many more taps than the chaos leaves time for.
        let tapper = try TestCardTapper(
            pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard, keyCount: 1_000)
        var node = worker
        var index = 0
        while await !ledger.stopping {
            index += 1
            let amount = 100 + worker + 10 * (index % 10)
            let key = "scale-\(worker)-\(index)-\(UUID().uuidString)"
            let request = try await merchant.paymentRequest(tapper, minorUnits: amount)
            let deadline = ContinuousClock.now + .seconds(90)
            var answered = false
            while !answered, ContinuousClock.now < deadline {
                node = (node + 1) % clients.count
                guard
                    let reply = try? await clients[node].post(
                        "/v1/payments", bearer: merchant.session, body: request, idempotencyKey: key)
                else {
                    await ledger.retry()
                    try await Task.sleep(for: .milliseconds(100))
                    continue
                }
                switch (reply.status, reply.problem?.code) {
                case (201, _), (504, "issuerUnavailable"):
                    await ledger.record(
                        Outcome(key: key, request: request, status: reply.status, body: reply.body, card: card))
                    answered = true
                case (409, "idempotencyKeyInUse"), (503, _):
                    try await Task.sleep(for: .milliseconds(200))
                default:
                    await ledger.note("worker \(worker) \(key): \(reply.status) \(reply.text)")
                    return
                }
            }
            if !answered { await ledger.note("worker \(worker) \(key): no answer in 90 s") }
        }
    }

    /// Waits (at most 90 s) until no payment is processing and no reversal is due.
    private static func waitUntilSettled(_ client: GatewayClient, merchant: ProcessMerchant) async throws {
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            let processing = try? await client.get("/v1/payments?status=processing&limit=100", bearer: merchant.apiKey)
            if let processing, try processing.decoded(PaymentList.self).data.isEmpty { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("payments were still processing 90 s after the chaos")
    }

    /// Each request paid at most once and as its answer says; nothing processing; every failed payment reversed; each
    /// card's balance at the issuer is the initial one less its succeeded payments.
    private static func checkBooks(_ store: ProcessStore, outcomes: [Outcome], cards: [TestCard]) async throws {
        try await store.withDatabase { database in
            var statuses: [String: (status: String, amount: Int, last4: String)] = [:]
            for row in try await database.query("SELECT id, status, amount, card_last4 FROM payments", []) {
                statuses[try row.text("id")] = (
                    try row.text("status"), try row.integer("amount"), try row.text("card_last4")
                )
            }
            #expect(!statuses.values.contains { $0.status == PaymentStatus.processing.rawValue }, "still processing")
            // One payment per key at most, each made by exactly one key.
            let keyed = try await database.query(
                "SELECT idempotency_key, payment_id FROM idempotency_keys WHERE payment_id IS NOT NULL", [])
            let paymentsOfKeys = try keyed.map { try $0.text("payment_id") }
            #expect(Set(paymentsOfKeys).count == paymentsOfKeys.count, "a payment is the answer of two keys")
            #expect(Set(paymentsOfKeys) == Set(statuses.keys), "payments without a key, or keys without a payment")
            for outcome in outcomes where outcome.status == 201 {
                let payment = try JSONDecoder.gatewayAPI.decode(Payment.self, from: outcome.body)
                #expect(statuses[payment.id]?.status == payment.status.rawValue, "acknowledged \(payment.id) lost")
            }
            let unreversed = try await database.query(
                """
                SELECT id FROM payments
                WHERE status = 'failed' AND (reversal_message IS NOT NULL OR next_reversal_at IS NOT NULL)
                """, [])
            #expect(unreversed.isEmpty, "failed payments whose reversal is not acknowledged")
            let keys = try store.embeddedIssuerKeys()
            let issuer = SQLIssuerRepository(database: database)
            for card in cards {
                let spent = statuses.values.filter {
                    $0.status == PaymentStatus.succeeded.rawValue && card.pan.hasSuffix($0.last4)
                }.reduce(0) { $0 + $1.amount }
                let balance = try await issuer.account(keys.keyedHash(of: try PAN(card.pan)))?.availableBalance
                #expect(balance == TestCards.balance - spent, "\(card): the issuer's balance against the payments")
            }
        }
    }
}
