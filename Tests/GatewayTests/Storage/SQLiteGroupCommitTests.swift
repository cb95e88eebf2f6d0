import _SQLStorage
import ContactlessTesting
import Gateway
import Testing

/// SQLite's group commit (`SQLiteCommitGroup`): transactions that finish while a sync of the WAL is under way wait
/// in one open group for it to end, and those that do not wait for the disk return before their group commits.
/// Each test reads back through a second connection, which sees only what was committed.
@Suite("Storage: SQLite group commit", .timeLimit(.minutes(1)))
struct SQLiteGroupCommitTests {
    @Test("300 concurrent transactions, half not waiting for the disk: all committed once waitUntilDurable returns")
    func mixedDurability() async throws {
        try await Self.withFile { database, reader in
            try await database.query("CREATE TABLE items (id BIGINT PRIMARY KEY)")
            try await Self.insertConcurrently(300, into: database) { !$0.isMultiple(of: 2) }
            try await database.waitUntilDurable()
            #expect(try await Self.committedCount(reader) == 300)
        }
    }

    @Test("writes of transactions that do not wait for the disk are committed when the sync under way ends, unasked")
    func parkedGroupCommitsItself() async throws {
        try await Self.withFile { database, reader in
            try await database.query("CREATE TABLE items (id BIGINT PRIMARY KEY)")
            // Every 20th waits for the disk and keeps syncs going while the others finish, so some of them park.
            try await Self.insertConcurrently(60, into: database) { $0.isMultiple(of: 20) }
            // No further transaction: the group left open must commit by itself.
            var count = 0
            for _ in 0..<500 {
                count = try await Self.committedCount(reader)
                if count == 60 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(count == 60)
        }
    }

    @Test("a statement that fails outside a transaction undoes only itself, not the writes of its group")
    func failedStatementAlone() async throws {
        try await Self.withFile { database, reader in
            try await database.query("CREATE TABLE items (id BIGINT PRIMARY KEY, note TEXT NOT NULL)")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 0..<100 {
                    group.addTask { () async throws -> Void in
                        if id.isMultiple(of: 2) {
                            _ = try await database.transactionDurableLater { executor in
                                try await executor.query(
                                    "INSERT INTO items (id, note) VALUES ($1, 'kept')", [.integer(id)])
                            }
                        } else {
                            await #expect(throws: StorageError.self) {
                                try await database.query(
                                    "INSERT INTO items (id, note) VALUES ($1, NULL)", [.integer(id)])
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await database.transaction { executor in
                try await executor.query("INSERT INTO items (id, note) VALUES (1000, 'after')")
            }
            #expect(try await Self.committedCount(reader) == 51)
        }
    }

    /// Inserts ids `0..<count` into `items` concurrently, each in a transaction of its own that waits for the disk
    /// when `waitsForDisk(id)`.
    private static func insertConcurrently(
        _ count: Int, into database: SQLiteStorage, waitsForDisk: @escaping @Sendable (Int) -> Bool
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<count {
                group.addTask {
                    let insert: @Sendable (any SQLExecutor) async throws -> Void = { executor in
                        try await executor.query("INSERT INTO items (id) VALUES ($1)", [.integer(id)])
                    }
                    if waitsForDisk(id) {
                        try await database.transaction(insert)
                    } else {
                        try await database.transactionDurableLater(insert)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Runs `body` with a fresh SQLite file (the gateway's pragmas, WAL synced by `SQLiteWALSync`) and a second
    /// connection to it, which sees only what was committed.
    private static func withFile(_ body: (SQLiteStorage, SQLiteStorage) async throws -> Void) async throws {
        try await TestDatabases.withSQLitePath { path in
            let database = try await SQLiteStorage.open(path: path)
            try await body(database, try await SQLiteStorage.open(path: path))
        }
    }

    /// The rows of `items` the second connection sees.
    private static func committedCount(_ reader: SQLiteStorage) async throws -> Int {
        try #require(try await reader.query("SELECT count(*) AS n FROM items").first).integer("n")
    }
}
