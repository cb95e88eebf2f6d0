import ArgumentParser
import Foundation
import Gateway
import NIOHTTP1
import TestMode
import _SQLStorage

extension Tap.Bench {
    /// The merchant console's payment list and payment page with a long history.
    struct ConsolePages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "console",
            abstract: "Latency of the console's payment list and payment page with a million payments (p50, p99).",
            discussion: """
                Starts a gateway in this process (SQLite, or --database), writes --payments past payments of one \
                merchant (30 days, one in sixteen declined, three BINs, 10,000 last fours), signs a console user \
                in, and then times --requests requests of each kind, one at a time over keep-alive HTTP, as a \
                browser asks: the newest page of the list, the list filtered by status, by last four, by a day, by \
                an amount range, a page further down by cursor, and the page of a random payment (with its \
                timeline). Target: p99 at most 50 ms for each.
                """)

        @Option(help: "Past payments in the database (1 to 10000000).") var payments = 1_000_000
        @Option(help: "Requests of each kind (10 to 10000).") var requests = 200
        @Option(help: ArgumentHelp("PostgreSQL instead of SQLite (an empty database).", valueName: "postgres://…"))
        var database: String?
        @Flag(help: "Print one JSON object instead of text.") var json = false

        func validate() throws {
            guard (1...10_000_000).contains(payments) else { throw ValidationError("--payments must be 1 to 10000000") }
            guard (10...10_000).contains(requests) else { throw ValidationError("--requests must be 10 to 10000") }
        }

        struct Result: Encodable {
            var payments: Int
            var database: String
            var pages: [String: LatencySummary]
            var targetP99Ms: Double
        }

        func run() async throws {
            let (payments, requests, json) = (payments, requests, json)
            let result = try await EmbeddedGateway.with(
                connections: 1, databaseURL: database, pastPayments: payments,
                progress: { line in if !json { standardError("tap bench console: \(line)") } }
            ) { gateway in
                guard let database = gateway.database else { throw CommandFailure("no database") }
                let user = try await MerchantUserRepository(database: database).add(
                    merchantId: gateway.merchantId, email: "bench@console.example", role: .admin, actor: "bench")
                let accounts = ConsoleAccounts(database: database)
                guard
                    let console = try await accounts.team(merchantId: gateway.merchantId).first(where: {
                        $0.id == user.id
                    })
                else { throw CommandFailure("the bench user is missing") }
                let (token, _) = try await accounts.openSession(for: console, address: "127.0.0.1", userAgent: "bench")
                let cookie = [("Cookie", "\(ConsoleController.sessionCookieName)=\(token)")]
                let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3 * 86_400)).prefix(10)
                let kinds: [(String, @Sendable (Int) -> String)] = [
                    ("list", { _ in "/console/payments" }),
                    ("list by status", { _ in "/console/payments?status=declined" }),
                    (
                        "list by last four",
                        { index in "/console/payments?card=\(String(format: "%04d", index % 10_000))" }
                    ),
                    ("list by day", { _ in "/console/payments?from=\(day)&to=\(day)" }),
                    ("list by amount", { _ in "/console/payments?min=5.00&max=5.50" }),
                    (
                        "list page by cursor",
                        { index in "/console/payments?after=pay_past_\(1 + (index * 7_919) % payments)" }
                    ),
                    ("payment page", { index in "/console/payments/pay_past_\(1 + (index * 104_729) % payments)" }),
                ]
                var pages: [String: LatencySummary] = [:]
                let clock = ContinuousClock()
                for (name, path) in kinds {
                    var samples = LatencySamples()
                    for index in 0..<(requests + 5) {
                        let start = clock.now
                        let answer = try await gateway.client.send(.GET, path(index), headers: cookie)
                        let elapsed = clock.now - start
                        guard answer.status == 200 else {
                            throw CommandFailure("\(name) \(path(index)) answered \(answer.status)")
                        }
                        if index >= 5 { samples.record(elapsed) }  // the first few warm the caches
                    }
                    pages[name] = samples.summary()
                }
                return Result(
                    payments: payments, database: database.dialect == .sqlite ? "SQLite" : "PostgreSQL", pages: pages,
                    targetP99Ms: 50)
            }
            if json { return try printJSON(result) }
            print(
                "tap bench console: \(result.payments) payments on \(result.database), \(requests) requests of each kind"
            )
            for (name, summary) in result.pages.sorted(by: { $0.key < $1.key }) {
                print(
                    "  " + name.padding(toLength: 22, withPad: " ", startingAt: 0)
                        + String(
                            format: "p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms", summary.p50Ms, summary.p99Ms,
                            summary.maxMs))
            }
            let worst = result.pages.values.map(\.p99Ms).max() ?? 0
            print(String(format: "  worst p99 %.2f ms; target ≤ 50 ms: %@", worst, worst <= 50 ? "met" : "MISSED"))
        }
    }
}
