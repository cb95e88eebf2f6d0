import _SQLStorage
import ContactlessTesting
import Foundation
import Gateway
import Testing

/// Makes a missing PostgreSQL visible: skipped with its reason on a developer's machine, a failure in CI.
@Suite("PostgreSQL availability")
struct PostgresAvailabilityTests {
    @Test(
        "the test PostgreSQL server is reachable and is version 15 or later",
        .enabled(
            if: TestDatabases.postgresURL != nil,
            "CONTACTLESS_POSTGRES_URL is not set: every PostgreSQL case is skipped (scripts/test sets it)"))
    func reachable() async throws {
        try await TestDatabases.with(.postgres, migrating: []) { database in
            let rows = try await database.query("SELECT current_setting('server_version_num')::bigint AS version")
            #expect(try #require(rows.first).integer("version") >= 150_000)
        }
    }

    @Test(
        "CI runs the PostgreSQL cases",
        .enabled(if: ProcessInfo.processInfo.environment["CI"] != nil, "not in CI"))
    func notSkippedInCI() {
        #expect(
            TestDatabases.postgresURL != nil,
            "CI is set but CONTACTLESS_POSTGRES_URL is not: PostgreSQL would be skipped silently")
    }
}
