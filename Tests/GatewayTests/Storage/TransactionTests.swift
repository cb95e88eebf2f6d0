import _SQLStorage
import ContactlessTesting
import Gateway
import Testing

@Suite("Storage: transactions")
struct TransactionTests {
    struct Abandoned: Error, Equatable {}

    @Test(
        "a transaction whose body throws is rolled back and rethrows the body's error", arguments: TestDatabases.kinds)
    func rollback(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            try await database.query("CREATE TABLE ledger (id BIGINT PRIMARY KEY, amount BIGINT NOT NULL)")
            try await database.query("INSERT INTO ledger (id, amount) VALUES (1, 100)")
            await #expect(throws: Abandoned()) {
                try await database.transaction { executor in
                    try await executor.query("UPDATE ledger SET amount = amount - 60 WHERE id = 1")
                    try await executor.query("INSERT INTO ledger (id, amount) VALUES (2, 60)")
                    throw Abandoned()
                }
            }
            let rows = try await database.query("SELECT id, amount FROM ledger ORDER BY id")
            #expect(try rows.map { [try $0.integer("id"), try $0.integer("amount")] } == [[1, 100]])
            // The database is usable afterwards, and a body that returns commits.
            let id = try await database.transaction { executor in
                try await executor.query("INSERT INTO ledger (id, amount) VALUES (3, 5) RETURNING id").first?.integer(
                    "id")
            }
            #expect(id == 3)
        }
    }

    @Test("a failed statement fails its transaction even when the body catches it", arguments: TestDatabases.kinds)
    func caughtFailure(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            try await database.query("CREATE TABLE names (name TEXT PRIMARY KEY)")
            try await database.query("INSERT INTO names (name) VALUES ('taken')")
            await #expect(throws: StorageError.uniqueViolation) {
                try await database.transaction { executor in
                    try await executor.query("INSERT INTO names (name) VALUES ('new')")
                    _ = try? await executor.query("INSERT INTO names (name) VALUES ('taken')")
                }
            }
            #expect(try await database.query("SELECT name FROM names").count == 1)
            // What to write instead: the conflict is no error, and the transaction commits.
            let inserted = try await database.transaction { executor in
                try await executor.query("INSERT INTO names (name) VALUES ('new')")
                return try await executor.query(
                    "INSERT INTO names (name) VALUES ('taken') ON CONFLICT (name) DO NOTHING RETURNING name")
            }
            #expect(inserted.isEmpty)
            #expect(try await database.query("SELECT name FROM names").count == 2)
        }
    }

    @Test("50 concurrent read-modify-write transactions on one row lose no update", arguments: TestDatabases.kinds)
    func concurrentIncrements(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: []) { database in
            try await database.query("CREATE TABLE counters (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)")
            try await database.query("INSERT INTO counters (id, value) VALUES (1, 0)")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await database.transaction { executor in
                            let rows = try await executor.query(
                                "SELECT value FROM counters WHERE id = 1\(executor.dialect.forUpdate)")
                            let value = try #require(rows.first).integer("value")
                            await Task.yield()  // invite another transaction in between the read and the write
                            try await executor.query(
                                "UPDATE counters SET value = $1 WHERE id = 1", [.integer(value + 1)])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let final = try #require(try await database.query("SELECT value FROM counters WHERE id = 1").first)
            #expect(try final.integer("value") == 50)
        }
    }

    @Test(
        "PostgreSQL retries a transaction that lost a deadlock",
        .enabled(if: TestDatabases.postgresURL != nil, "CONTACTLESS_POSTGRES_URL is not set"))
    func deadlockRetried() async throws {
        try await TestDatabases.with(.postgres, migrating: []) { database in
            try await database.query("CREATE TABLE pair (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)")
            try await database.query("INSERT INTO pair (id, value) VALUES (1, 0), (2, 0)")
            // Two transactions lock the rows in opposite orders, each waiting at a barrier after its first lock:
            // PostgreSQL aborts one with 40P01, which runs again and succeeds.
            let barrier = Barrier(parties: 2)
            let attempts = Barrier.Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (first, second) in [(1, 2), (2, 1)] {
                    group.addTask {
                        try await database.transaction { executor in
                            let attempt = attempts.increment()
                            try await executor.query(
                                "UPDATE pair SET value = value + 1 WHERE id = $1", [.integer(first)])
                            if attempt <= 2 { await barrier.arrive() }
                            try await executor.query(
                                "UPDATE pair SET value = value + 1 WHERE id = $1", [.integer(second)])
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(attempts.value == 3)
            let values = try await database.query("SELECT value FROM pair ORDER BY id").map { try $0.integer("value") }
            #expect(values == [2, 2])
        }
    }
}
