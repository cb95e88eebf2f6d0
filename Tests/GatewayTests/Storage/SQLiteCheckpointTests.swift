import _SQLStorage
import ContactlessTesting
import Foundation
import Gateway
import Testing

/// The WAL of a SQLite file is checkpointed by a connection beside the writer (`SQLiteCheckpointer`): from 1,000
/// pages on, without the writer's commit copying them, and in place only should the WAL reach 10,000 pages.
@Suite("Storage: SQLite checkpoints beside the writer", .timeLimit(.minutes(1)))
struct SQLiteCheckpointTests {
    /// One WAL frame: a 1 KiB page and its 24-byte header.
    private static let frameBytes = 1_048

    @Test("past 1,000 WAL pages the database file takes them in; the WAL stays below 10,000 pages; nothing is lost")
    func checkpointsBesideTheWriter() async throws {
        try await TestDatabases.withSQLitePath { path in
            let database = try await SQLiteStorage.open(path: path)
            try await database.query("CREATE TABLE blobs (id BIGINT PRIMARY KEY, data BLOB NOT NULL)")
            let emptySize = Self.size(path)
            // About 2,000 pages: below the writer's own limit, so only the checkpointer copies them.
            var next = 0
            next = try await Self.insert(rows: 2_000, from: next, into: database)
            #expect(Self.size(path + "-wal") < 10_000 * Self.frameBytes)
            // The commit that passed 1,000 pages started a checkpoint of them (the next starts 1,000 pages later,
            // if that one has ended), which runs on NIO's thread pool: allow for a pool busy with other tests.
            var grown = false
            for _ in 0..<2_000 where !grown {
                grown = Self.size(path) > emptySize + 700_000
                if !grown { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(grown, "the database file did not take in the WAL's pages: \(Self.size(path)) bytes")
            // 30,000 pages more, written without a pause: the WAL starts over instead of growing with them (at the
            // latest when it holds 10,000 pages and the commit that passed them, of some 200).
            next = try await Self.insert(rows: 30_000, from: next, into: database)
            let walSize = Self.size(path + "-wal")
            #expect(walSize <= 10_500 * Self.frameBytes)
            // The file keeps its high-water mark: had the writer checkpointed at 1,000 pages, as SQLite's automatic
            // checkpoint does, the WAL would have started over before reaching about 1,200. How far past that it gets
            // depends on how fast the checkpointer beside it copies (a quiet CI machine saw 2,220 pages), so the bound
            // is what tells the two apart, not a guess at the checkpointer's speed.
            #expect(walSize > 1_500 * Self.frameBytes, "the writer checkpointed in place")
            // Closed right after the writes, with a checkpoint perhaps running: every row is there on reopening.
            try await Self.close(database)
            let reopened = try await SQLiteStorage.open(path: path)
            let count = try #require(try await reopened.query("SELECT count(*) AS n FROM blobs").first).integer("n")
            #expect(count == next)
            try await Self.close(reopened)
        }
    }

    /// Inserts `rows` rows of 900 bytes (about a page each), 100 per transaction; returns the next id.
    private static func insert(rows: Int, from first: Int, into database: SQLiteStorage) async throws -> Int {
        let data = [UInt8](repeating: 0xA5, count: 900)
        for start in stride(from: first, to: first + rows, by: 100) {
            try await database.transaction { executor in
                for id in start..<(start + 100) {
                    try await executor.query(
                        "INSERT INTO blobs (id, data) VALUES ($1, $2)", [.integer(id), .blob(data)])
                }
            }
        }
        return first + rows
    }

    /// Shuts the storage down as `tap serve` does: its service's `run` returns once the task is cancelled.
    private static func close(_ database: SQLiteStorage) async throws {
        let service = Task { try await database.run() }
        service.cancel()
        try await service.value
    }

    private static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
