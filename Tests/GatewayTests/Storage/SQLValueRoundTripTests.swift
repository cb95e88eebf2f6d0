import _SQLStorage
import ContactlessTesting
import Gateway
import Testing

@Suite("Storage: values and placeholders")
struct SQLValueRoundTripTests {
    static let blobs: [[UInt8]] = [[], [0], Array(0...255), Array(repeating: 0xA5, count: 100_000)]
    static let texts = ["", "a", "héllo wörld ✓ 🃏 日本語", "'; DROP TABLE x; --", String(repeating: "é", count: 10_000)]
    static let integers = [0, 1, -1, Int.max, Int.min, 4_294_967_296, -2_147_483_649]

    @Test("every kind of value comes back as it went in", arguments: TestDatabases.kinds)
    func roundTrip(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            try await database.query(
                "CREATE TABLE round_trip (id BIGINT PRIMARY KEY, i BIGINT, t TEXT, b \(database.dialect.blobType))")
            var rows: [[SQLValue]] = []
            for (index, integer) in Self.integers.enumerated() {
                rows.append([.integer(index), .integer(integer), .null, .null])
            }
            for (index, text) in Self.texts.enumerated() {
                rows.append([.integer(100 + index), .null, .text(text), .null])
            }
            for (index, blob) in Self.blobs.enumerated() {
                rows.append([.integer(200 + index), .null, .null, .blob(blob)])
            }
            for row in rows {
                try await database.query("INSERT INTO round_trip (id, i, t, b) VALUES ($1, $2, $3, $4)", row)
            }
            for row in rows {
                let read = try #require(
                    try await database.query("SELECT id, i, t, b FROM round_trip WHERE id = $1", [row[0]]).first)
                #expect([read["id"], read["i"], read["t"], read["b"]] == row.map(Optional.some), "row \(row[0])")
            }
            let empty = try await database.query("SELECT b FROM round_trip WHERE id = 200")
            #expect(try empty.first?.blob("b") == [])
        }
    }

    @Test("$N placeholders bind by number, in any order and past 9", arguments: TestDatabases.kinds)
    func placeholders(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            try await database.query("CREATE TABLE numbered (a BIGINT, b TEXT, c BIGINT)")
            let binds: [SQLValue] = (1...11).map { .integer($0 * 10) }
            try await database.query("INSERT INTO numbered (a, b, c) VALUES ($11, 'costs $5', $2)", binds)
            let row = try #require(try await database.query("SELECT a, b, c FROM numbered WHERE a = $1", [110]).first)
            #expect(try row.integer("a") == 110)
            #expect(try row.text("b") == "costs $5")
            #expect(try row.integer("c") == 20)
            let reused = try await database.query("SELECT a FROM numbered WHERE a = $1 AND c < $1", [110])
            #expect(reused.count == 1)
        }
    }

    @Test("a statement run before a schema change reads the new columns after it", arguments: TestDatabases.kinds)
    func columnsAfterSchemaChange(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            try await database.query("CREATE TABLE widening (a BIGINT)")
            try await database.query("INSERT INTO widening (a) VALUES (1)")
            let before = try #require(try await database.query("SELECT * FROM widening").first)
            #expect(before["b"] == nil)
            try await database.query("ALTER TABLE widening ADD COLUMN b TEXT")
            try await database.query("UPDATE widening SET b = 'x'")
            let after = try #require(try await database.query("SELECT * FROM widening").first)
            #expect(try after.integer("a") == 1)
            #expect(try after.text("b") == "x")
            try await database.query("ALTER TABLE widening RENAME COLUMN b TO c")
            let renamed = try #require(try await database.query("SELECT * FROM widening").first)
            #expect(renamed["b"] == nil)
            #expect(try renamed.text("c") == "x")
        }
    }

    @Test("a taken unique key is uniqueViolation, and the error quotes no value", arguments: TestDatabases.kinds)
    func uniqueViolation(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            try await database.query("CREATE TABLE keys (id TEXT PRIMARY KEY, secret TEXT NOT NULL UNIQUE)")
            try await database.query("INSERT INTO keys (id, secret) VALUES ($1, $2)", ["a", "4761739001010119"])
            let primary = await #expect(throws: StorageError.uniqueViolation) {
                try await database.query("INSERT INTO keys (id, secret) VALUES ($1, $2)", ["a", "5413339000001513"])
            }
            let unique = await #expect(throws: StorageError.uniqueViolation) {
                try await database.query("INSERT INTO keys (id, secret) VALUES ($1, $2)", ["b", "4761739001010119"])
            }
            for error in [primary, unique].compactMap({ $0 }) {
                #expect(!"\(error.message) \(error)".contains("4761739001010119"))
                #expect(!"\(error.message) \(error)".contains("5413339000001513"))
            }
            let other = await #expect(throws: StorageError.queryFailed) {
                try await database.query("INSERT INTO keys (id, secret) VALUES ($1, NULL)", ["4761739001010119"])
            }
            #expect(other.map { !"\($0.message)".contains("4761739001010119") } ?? false)
        }
    }
}
