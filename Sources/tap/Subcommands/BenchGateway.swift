import ArgumentParser
import Foundation
import GatewayAPI
import Issuer
import NIOCore
import NIOHTTP1
import TestMode

extension Tap.Bench {
    /// Authorizations per second through the whole gateway over HTTP on the loopback, against its trivial endpoint
    /// in the same run.
    struct GatewayLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gateway",
            abstract: "Authorizations per second and latency of the gateway, against GET /health in the same run.",
            discussion: """
                Starts a gateway in this process on a free loopback port with a fresh data directory (durable \
                SQLite, the in-process issuer), onboards a merchant and prepares a device over HTTP, then measures \
                over keep-alive HTTP/1.1 connections: (a) GET /health closed-loop with --connections workers (the \
                framework's ceiling) and (b) POST /v1/payments (each with its own time-ordered (UUIDv7) \
                Idempotency-Key, as an SDK sends) closed-loop, the same way, after a 1 s warm-up, --seconds each, in \
                up to three rounds of one after the other, so that both rates come from the same minutes of a shared \
                machine; (c) \
                POST /v1/payments open-loop at --rate per second for --seconds, latency measured from when each \
                request was due. Every \
                authorization unseals HPKE card data, sends an ISO 8583 0100 to the issuer (ARQC verified) and \
                commits to disk before it is answered. Each worker taps its own load-test card (0.01 EUR a tap), so \
                its ATCs reach the issuer in order; taps are made and sealed before each phase. Every payment must \
                be 201 `succeeded`: anything else is counted by cause. --database runs it on PostgreSQL; \
                --past-payments first writes that many past payments of the merchant (30 days of them, with their \
                audit rows and a day's idempotency keys), to show whether latency grows with the history. --nodes N \
                (with --database) starts N gateways on the database with one key file; after the single node's \
                closed loop, the same loop runs with each worker on one of the N.
                """)

        @Option(help: "Seconds each phase is measured (1–120).") var seconds = 10
        @Option(help: "Concurrent workers (connections) in the closed-loop phases (1–128).") var connections = 64
        @Option(help: "Authorizations per second in the open-loop phase (1–5000).") var rate = 500.0
        @Option(help: ArgumentHelp("PostgreSQL instead of SQLite (an empty database).", valueName: "postgres://…"))
        var database: String?
        @Option(help: "Past payments written into the database before measuring (0 to 10000000).")
        var pastPayments = 0
        @Option(help: "Gateway nodes on the one --database: the closed loop is measured on one, then spread over all.")
        var nodes = 1
        @Flag(help: "Print one JSON object instead of text.") var json = false

        /// The closed-loop rate pre-made taps are sized for; a faster server leaves workers without taps (reported).
        static let assumedMaximumRate = 8_000.0
        static let warmUp: Duration = .seconds(1)

        func validate() throws {
            guard (1...120).contains(seconds) else { throw ValidationError("--seconds must be 1 to 120") }
            guard (1...TestCards.loadTestCards.count).contains(connections) else {
                throw ValidationError("--connections must be 1 to \(TestCards.loadTestCards.count)")
            }
            guard rate >= 1, rate <= 5_000 else { throw ValidationError("--rate must be 1 to 5000") }
            guard (0...10_000_000).contains(pastPayments) else {
                throw ValidationError("--past-payments must be 0 to 10000000")
            }
            guard (1...8).contains(nodes) else { throw ValidationError("--nodes must be 1 to 8") }
            guard nodes == 1 || database != nil else {
                throw ValidationError("--nodes above 1 needs --database postgres://…: nodes share one database")
            }
        }

        func run() async throws {
            let duration = Duration.seconds(seconds)
            let connections = self.connections
            // Enough open-loop workers that each has ≥ 100 ms between its requests, but one card each.
            let openWorkers = min(
                TestCards.loadTestCards.count,
                max(connections, OpenLoopSchedule.workers(rate: rate, interval: .milliseconds(100))))
            let schedule = OpenLoopSchedule(rate: rate, duration: duration, workers: openWorkers)
            let warmUpPerWorker = Self.perWorker(
                rate: Self.assumedMaximumRate, duration: Self.warmUp, workers: connections)
            let rounds = Self.rounds(seconds: seconds)
            let roundDuration = duration / rounds
            // Taps per card and round of the closed loop, at most.
            let closedMaximumPerWorker = Self.perWorker(
                rate: Self.assumedMaximumRate, duration: roundDuration, workers: connections)
            let openPerWorker = (0..<openWorkers).map { schedule.requests(ofWorker: $0).underestimatedCount }
            let keysPerCard = warmUpPerWorker + rounds * closedMaximumPerWorker + (openPerWorker.max() ?? 0) + 8
            let progress: @Sendable (String) -> Void = { standardError("bench gateway: \($0)") }

            let pastPayments = self.pastPayments
            let database = self.database
            let nodes = self.nodes
            var report = try await EmbeddedGateway.with(
                connections: openWorkers, databaseURL: database, pastPayments: pastPayments, nodes: nodes,
                progress: progress
            ) { target in
                let supply = try TapSupply(workers: openWorkers, keysPerCard: keysPerCard, target: target)
                let client = target.client
                let bearer = "Bearer \(target.provisioning.session.token)"

                progress("GET /health, warm-up")
                _ = await LoadPhase.closedLoop(workers: connections, duration: .milliseconds(300)) { _, _ in
                    await Self.health(client)
                }

                progress("warm-up: \(warmUpPerWorker) taps per card")
                let warmUpBodies = Bodies(
                    try await supply.bodies(counts: Array(repeating: warmUpPerWorker, count: connections)))
                let warm = await LoadPhase.closedLoop(workers: connections, duration: Self.warmUp) { worker, index in
                    guard let body = warmUpBodies.body(worker, index) else { return nil }
                    return await Self.authorize(client, bearer: bearer, body: body)
                }
                // The closed loops in rounds, /health right before payments in each: a shared VM's speed drifts
                // within minutes, and measured as two separate phases (the taps made in between) a slow minute for
                // one of them moved the ratio anywhere from 14% to 28% with one build. Each round's taps are sized
                // on the warm-up's rate, with room to spare.
                let closedPerWorker = min(
                    closedMaximumPerWorker,
                    Self.perWorker(rate: max(warm.perSecond, 500) * 3, duration: roundDuration, workers: connections))
                progress(String(format: "warm-up %.0f/s", warm.perSecond))
                var health = LoadPhase()
                var closed = LoadPhase()
                for round in 1...rounds {
                    progress(
                        "round \(round)/\(rounds): making \(closedPerWorker * connections) taps for the closed loop")
                    // Taps the warm-up or a round did not spend are skipped: later taps have higher ATCs anyway.
                    let bodies = Bodies(
                        try await supply.bodies(counts: Array(repeating: closedPerWorker, count: connections)))
                    progress(
                        "round \(round)/\(rounds): GET /health, closed loop, \(connections) workers, \(roundDuration)")
                    health.append(
                        await LoadPhase.closedLoop(workers: connections, duration: roundDuration) { _, _ in
                            await Self.health(client)
                        })
                    progress(
                        "round \(round)/\(rounds): POST /v1/payments, closed loop, \(connections) workers, \(roundDuration)"
                    )
                    closed.append(
                        await LoadPhase.closedLoop(workers: connections, duration: roundDuration) { worker, index in
                            guard let body = bodies.body(worker, index) else { return nil }
                            return await Self.authorize(client, bearer: bearer, body: body)
                        })
                }

                // The same closed loop spread over every node, each worker on one, right after the single node's.
                var spread: LoadPhase?
                if target.clients.count > 1 {
                    progress("making \(closedPerWorker * connections) taps for the closed loop over \(nodes) nodes")
                    let bodies = Bodies(
                        try await supply.bodies(counts: Array(repeating: closedPerWorker, count: connections)))
                    let clients = target.clients
                    progress("POST /v1/payments, closed loop over \(nodes) nodes, \(connections) workers, \(duration)")
                    spread = await LoadPhase.closedLoop(workers: connections, duration: duration) { worker, index in
                        guard let body = bodies.body(worker, index) else { return nil }
                        return await Self.authorize(clients[worker % clients.count], bearer: bearer, body: body)
                    }
                }

                progress("making \(schedule.requestCount) taps for the open loop")
                let openBodies = Bodies(try await supply.bodies(counts: openPerWorker))
                progress("POST /v1/payments, open loop, \(Int(rate))/s over \(openWorkers) workers, \(seconds) s")
                let open = await LoadPhase.openLoop(schedule) { worker, number in
                    guard let body = openBodies.body(worker, number) else { return "noTap" }
                    return await Self.authorize(client, bearer: bearer, body: body)
                }
                var report = Self.report(
                    health: health, closed: closed, open: open, schedule: schedule, connections: connections,
                    seconds: seconds)
                if let spread {
                    let summary = spread.latencies.summary()
                    report.nodes = .init(
                        nodes: nodes, authorizationsPerSecond: spread.perSecond, p50Ms: summary.p50Ms,
                        p99Ms: summary.p99Ms, failures: spread.failures.values.reduce(0, +))
                    report.failures.total += report.nodes?.failures ?? 0
                }
                return report
            }
            report.database = database == nil ? "sqlite" : "postgres"
            report.pastPayments = pastPayments
            if json {
                try printJSON(report)
            } else {
                print(report.text)
            }
        }

        /// Rounds of the closed loops: three, or one per second for shorter runs.
        static func rounds(seconds: Int) -> Int { min(3, max(1, seconds)) }

        /// Requests per worker for `rate` over `duration` shared by `workers`, plus two.
        static func perWorker(rate: Double, duration: Duration, workers: Int) -> Int {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return Int((rate * seconds / Double(workers)).rounded(.up)) + 2
        }

        static func health(_ client: LoadClient) async -> LoadPhase.Outcome {
            do {
                let answer = try await client.send(.GET, "/health")
                return answer.status == 200 ? nil : "health/status \(answer.status)"
            } catch {
                return "health/transport"
            }
        }

        static let succeeded = Array(#""status":"succeeded""#.utf8)

        /// One authorization; nil when it answered 201 `succeeded`.
        static func authorize(_ client: LoadClient, bearer: String, body: ByteBuffer) async -> LoadPhase.Outcome {
            do {
                let answer = try await client.send(
                    .POST, "/v1/payments",
                    headers: [("Authorization", bearer), ("Idempotency-Key", UUID.timeOrdered().uppercaseText)],
                    body: body
                )
                if answer.status == 201, answer.contains(succeeded) { return nil }
                if let problem = try? JSONDecoder().decode(Problem.self, from: Data(answer.body.readableBytesView)) {
                    return problem.code
                }
                return "status \(answer.status)"
            } catch {
                return "transport"
            }
        }

        static func report(
            health: LoadPhase, closed: LoadPhase, open: LoadPhase, schedule: OpenLoopSchedule, connections: Int,
            seconds: Int
        ) -> GatewayBenchReport {
            let closedSummary = closed.latencies.summary()
            let openSummary = open.latencies.summary()
            let ratio = health.perSecond > 0 ? closed.perSecond / health.perSecond : 0
            var byCause: [String: Int] = [:]
            for (phase, result) in [("health", health), ("closedLoop", closed), ("openLoop", open)] {
                for (cause, count) in result.failures { byCause["\(phase)/\(cause)", default: 0] += count }
            }
            let failures = byCause.values.reduce(0, +)
            return GatewayBenchReport(
                machine: .init(cores: ProcessInfo.processInfo.activeProcessorCount), seconds: seconds,
                connections: connections, healthPerSecond: health.perSecond, authorizations: closed.completed,
                authorizationsPerSecond: closed.perSecond, p50Ms: closedSummary.p50Ms, p99Ms: closedSummary.p99Ms,
                ratio: ratio, healthCPUMicroseconds: health.cpuMicrosecondsPerRequest,
                authorizationCPUMicroseconds: closed.cpuMicrosecondsPerRequest,
                openLoop: .init(
                    rate: schedule.rate, workers: schedule.workers, requests: open.completed, p50Ms: openSummary.p50Ms,
                    p99Ms: openSummary.p99Ms, maxMs: openSummary.maxMs),
                failures: .init(total: failures, byCause: byCause),
                exhaustedWorkers: closed.exhaustedWorkers,
                targets: GatewayBenchReport.targets(
                    authorizationsPerSecond: closed.perSecond, openLoopP99Ms: openSummary.p99Ms, rate: schedule.rate,
                    ratio: ratio, failures: failures))
        }
    }
}

/// Pre-made request bodies per worker, read concurrently by the workers (never changed once made).
private struct Bodies: Sendable {
    let bodies: [[ByteBuffer]]

    init(_ bodies: [[ByteBuffer]]) { self.bodies = bodies }

    /// Worker `worker`'s `index`-th body, or nil when it has no more.
    func body(_ worker: Int, _ index: Int) -> ByteBuffer? {
        guard worker < bodies.count, index < bodies[worker].count else { return nil }
        return bodies[worker][index]
    }
}
