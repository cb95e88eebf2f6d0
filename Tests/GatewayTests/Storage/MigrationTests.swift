import _SQLStorage
import ContactlessTesting
import Gateway
import Issuer
import Testing

@Suite("Storage: migrations")
struct MigrationTests {
    @Test("each schema's migrations run once; a second run applies nothing", arguments: TestDatabases.kinds)
    func idempotent(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            #expect(try await GatewaySchema.migrator.migrate(database) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
            #expect(try await IssuerSchema.migrator.migrate(database) == [1, 2, 3, 4, 5, 6])
            #expect(try await GatewaySchema.migrator.migrate(database) == [])
            #expect(try await IssuerSchema.migrator.migrate(database) == [])
            let rows = try await database.query(
                "SELECT schema, version FROM schema_migrations ORDER BY schema, version")
            #expect(
                try rows.map { "\(try $0.text("schema")) \(try $0.integer("version"))" }
                    == [
                        "gateway 1", "gateway 2", "gateway 3", "gateway 4", "gateway 5", "gateway 6", "gateway 7",
                        "gateway 8", "gateway 9", "gateway 10",
                        "issuer 1", "issuer 2", "issuer 3", "issuer 4", "issuer 5", "issuer 6",
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
            #expect(applied.sorted() == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
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

    @Test(
        "devices per merchant: an old device goes to a merchant that used it, keeps terminal and STAN, loses its PIN key",
        arguments: TestDatabases.kinds)
    func devicesPerMerchant(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            let before = GatewaySchema.migrations.filter { $0.version < 5 }
            try await Migrator(schema: GatewaySchema.name, migrations: before).migrate(database)
            for merchant in ["mer_a", "mer_b"] {
                try await database.query(
                    """
                    INSERT INTO merchants (id, name, country, currency, category_code, card_acceptor_id, created_at)
                    VALUES ($1, 'Shop', 'DEU', 'EUR', '5411', $2, 0)
                    """, [.text(merchant), .text("acceptor-\(merchant)")])
            }
            let devices: [(id: String, terminal: String)] = [
                ("phone-paid", "T0000001"), ("phone-used", "T0000002"), ("ecom_mer_b", "T0000003"),
                ("phone-nobody", "T0000004"),
            ]
            for device in devices {
                try await database.query(
                    """
                    INSERT INTO devices (id, terminal_id, provisioned_at, pin_key, pin_key_id, next_stan)
                    VALUES ($1, $2, 0, $3, 'pk_old', 42)
                    """, [.text(device.id), .text(device.terminal), .blob([1, 2, 3])])
            }
            try await database.query(
                """
                INSERT INTO payments (id, merchant_id, device_id, kind, status, capture_method, amount, currency,
                    created_at, updated_at) VALUES ('pay_1', 'mer_a', 'phone-paid', 'purchase', 'succeeded',
                    'automatic', 100, 'EUR', 0, 0)
                """)
            try await database.query(
                "INSERT INTO device_merchant_uses (device_id, merchant_id, last_used_at) VALUES ('phone-used', 'mer_b', 0)"
            )

            #expect(try await GatewaySchema.migrator.migrate(database) == [5, 6, 7, 8, 9, 10])
            let rows = try await database.query(
                "SELECT merchant_id, id, terminal_id, next_stan, pin_key, pin_key_id FROM merchant_devices ORDER BY id")
            #expect(
                try rows.map { "\(try $0.text("merchant_id")) \(try $0.text("id")) \(try $0.text("terminal_id"))" }
                    == ["mer_b ecom_mer_b T0000003", "mer_a phone-paid T0000001", "mer_b phone-used T0000002"])
            #expect(try rows.allSatisfy { try $0.integer("next_stan") == 42 })
            #expect(
                try rows.allSatisfy { try $0.optionalBlob("pin_key") == nil && $0.optionalText("pin_key_id") == nil })
            await #expect(throws: StorageError.queryFailed) { try await database.query("SELECT id FROM devices") }
        }
    }
}
