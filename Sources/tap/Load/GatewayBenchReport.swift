import Foundation

/// What `tap bench gateway` found, as its `--json` prints it.
struct GatewayBenchReport: Encodable {
    /// `sqlite` or `postgres`.
    var database = "sqlite"
    /// Past payments in the database before measuring.
    var pastPayments = 0
    /// The closed loop over several nodes on one database (`--nodes`), beside the single node's.
    struct Nodes: Encodable {
        var nodes: Int
        var authorizationsPerSecond: Double
        var p50Ms: Double
        var p99Ms: Double
        var failures: Int
    }
    /// Nil with one node.
    var nodes: Nodes?
    /// The machine the figures are from.
    struct Machine: Encodable {
        var cores: Int
    }

    /// The open-loop phase.
    struct OpenLoop: Encodable {
        var rate: Double
        var workers: Int
        var requests: Int
        var p50Ms: Double
        var p99Ms: Double
        var maxMs: Double
    }

    /// Requests that did not get the answer expected (`health: 200`, `payments: 201 succeeded`), by phase and cause.
    struct Failures: Encodable {
        var total: Int
        var byCause: [String: Int]
    }

    /// One of the issue's targets and whether this run met it.
    struct Target: Encodable {
        var name: String
        var target: String
        var value: Double
        var pass: Bool
    }

    var machine: Machine
    var seconds: Int
    var connections: Int
    var healthPerSecond: Double
    var authorizations: Int
    var authorizationsPerSecond: Double
    var p50Ms: Double
    var p99Ms: Double
    /// Authorizations per second over `/health` requests per second, same run, same connections.
    var ratio: Double
    /// The process's CPU time (server, issuer and load generator) per `/health` request and per authorization in
    /// the closed loops, in µs: on a shared VM these vary far less than the rates do.
    var healthCPUMicroseconds: Double
    var authorizationCPUMicroseconds: Double
    var openLoop: OpenLoop
    var failures: Failures
    /// Closed-loop workers that ran out of pre-made taps before the end (their rate undercounts the server).
    var exhaustedWorkers: Int
    var targets: [Target]

    /// The issue's targets: ≥ 2,000 authorizations/s, p99 ≤ 25 ms at the open-loop rate (500/s by default), ≥ 20 %
    /// of the trivial endpoint's rate; none is met while any payment failed (a refusal is quick, and would count as
    /// a rate).
    static func targets(
        authorizationsPerSecond: Double, openLoopP99Ms: Double, rate: Double, ratio: Double, failures: Int
    ) -> [Target] {
        let clean = failures == 0
        return [
            Target(
                name: "authorizationsPerSecond", target: ">= 2000", value: authorizationsPerSecond,
                pass: clean && authorizationsPerSecond >= 2000),
            Target(
                name: "openLoopP99Ms", target: "<= 25 at \(Int(rate))/s", value: openLoopP99Ms,
                pass: clean && openLoopP99Ms <= 25),
            Target(name: "ratio", target: ">= 0.20", value: ratio, pass: clean && ratio >= 0.2),
        ]
    }

    /// The report for people.
    var text: String {
        func rate(_ value: Double) -> String { String(format: "%8.0f", value) }
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        var lines = [
            "gateway bench: \(machine.cores) cores, \(seconds) s per phase, \(connections) connections, "
                + "durable \(database == "sqlite" ? "SQLite" : "PostgreSQL"), in-process issuer, "
                + "\(pastPayments) past payments",
            "  GET /health, closed loop:            \(rate(healthPerSecond)) requests/s",
            "  POST /v1/payments, closed loop:      \(rate(authorizationsPerSecond)) authorizations/s "
                + "(\(authorizations)), p50 \(ms(p50Ms)), p99 \(ms(p99Ms)); "
                + String(format: "%.1f%%", ratio * 100) + " of /health",
            "  CPU per request (whole process, load generator included): /health "
                + String(format: "%.0f µs, authorization %.0f µs", healthCPUMicroseconds, authorizationCPUMicroseconds),
            "  POST /v1/payments, open loop \(Int(openLoop.rate))/s:  p50 \(ms(openLoop.p50Ms)), "
                + "p99 \(ms(openLoop.p99Ms)), max \(ms(openLoop.maxMs)) (\(openLoop.requests) requests, "
                + "\(openLoop.workers) workers)",
        ]
        if let nodes {
            lines.append(
                "  POST /v1/payments, closed loop over \(nodes.nodes) nodes: \(rate(nodes.authorizationsPerSecond)) "
                    + "authorizations/s, p50 \(ms(nodes.p50Ms)), p99 \(ms(nodes.p99Ms)) (one node above)")
        }
        if failures.total == 0 {
            lines.append("  failures: none")
        } else {
            let causes = failures.byCause.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append("  failures: \(failures.total) (\(causes.joined(separator: ", ")))")
        }
        if exhaustedWorkers > 0 {
            lines.append("  note: \(exhaustedWorkers) closed-loop workers ran out of pre-made taps before the end")
        }
        for target in targets {
            lines.append(
                "  target \(target.name) \(target.target): " + String(format: "%.2f", target.value)
                    + (target.pass ? " met" : " MISSED"))
        }
        return lines.joined(separator: "\n")
    }
}
