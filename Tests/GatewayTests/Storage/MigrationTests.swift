import Gateway
import Testing

@Suite("Storage: migrations")
struct MigrationTests {
    @Test("each schema's migrations run once; a second run applies nothing", arguments: TestDatabases.kinds)
    func idempotent(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            #expect(try await GatewaySchema.migrator.migrate(database) == [1, 2, 3, 4])
            #expect(try await IssuerSchema.migrator.migrate(database) == [1, 2, 3, 4, 5, 6])
            #expect(try await GatewaySchema.migrator.migrate(database) == [])
            #expect(try await IssuerSchema.migrator.migrate(database) == [])
            let rows = try await database.query(
                "SELECT schema, version FROM schema_migrations ORDER BY schema, version")
            #expect(
                try rows.map { "\(try $0.text("schema")) \(try $0.integer("version"))" }
                    == [
                        "gateway 1", "gateway 2", "gateway 3", "gateway 4", "issuer 1", "issuer 2", "issuer 3", "issuer 4",
                        "issuer 5", "issuer 6",
                    ])
        }
    }

    @Test("concurrent migrators of one schema apply each step once", arguments: TestDatabases.kinds)
    func concurrent(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            // The shared bookkeeping table first, as a node that already migrated another schema would have it.
            try await IssuerSchema.migrator.migrate(database)
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 { group.addTask { try await GatewaySchema.migrator.migrate(database) } }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(applied.sorted() == [1, 2, 3, 4])
        }
    }

    @Test("a failing step is rolled back whole and leaves the version before it", arguments: TestDatabases.kinds)
    func failingStep(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            let first = Migration(version: 1, name: "first") { _ in ["CREATE TABLE steps_one (id BIGINT)"] }
            let broken = Migration(version: 2, name: "broken") { _ in
                ["CREATE TABLE steps_two (id BIGINT)", "INSERT INTO no_such_table VALUES (1)"]
            }
            await #expect(throws: StorageError.migrationFailed) {
                try await Migrator(schema: "steps", migrations: [first, broken]).migrate(database)
            }
            let versions = try await database.query("SELECT version FROM schema_migrations WHERE schema = 'steps'")
            #expect(try versions.map { try $0.integer("version") } == [1])
            try await database.query("SELECT id FROM steps_one")
            await #expect(throws: StorageError.queryFailed) { try await database.query("SELECT id FROM steps_two") }

            let fixed = Migration(version: 2, name: "fixed") { _ in ["CREATE TABLE steps_two (id BIGINT)"] }
            #expect(try await Migrator(schema: "steps", migrations: [first, fixed]).migrate(database) == [2])
        }
    }
}
