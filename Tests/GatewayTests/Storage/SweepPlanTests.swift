import _SQLStorage
import ContactlessTesting
import Gateway
import Testing

/// The sweep runs every second on the one SQLite connection: a query of it that read a whole table would cost time
/// in proportion to every payment ever made.
@Suite("Storage: the sweep's queries")
struct SweepPlanTests {
    @Test(
        "due reversals, abandoned payments and expired reads are found through their indexes, not by reading the table",
        arguments: [
            (PaymentRepository.reversalsDueQuery, 2, "payments_reversal_due"),
            (PaymentRepository.abandonedQuery, 3, "payments_unfinished"),
            (SQLReplayStore.purgeStatement, 1, "opened_reads_by_expiry"),
        ])
    func readsItsIndex(_ query: String, parameters: Int, index: String) async throws {
        try await TestDatabases.with(.sqlite) { database in
            let binds = [SQLValue](repeating: .integer(1), count: parameters)
            let plan = try await database.query("EXPLAIN QUERY PLAN " + query, binds)
            let steps = try plan.map { try $0.text("detail") }
            #expect(steps.contains { $0.contains("USING INDEX \(index)") }, "\(steps)")
            #expect(!steps.contains { $0.hasPrefix("SCAN ") && !$0.contains("INDEX") }, "\(steps)")
        }
    }
}
