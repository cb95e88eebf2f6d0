import _SQLStorage
import ContactlessTesting
import Gateway
import SQLiteWALBuffer
import Testing

/// A commit's WAL frames go to the file in one write instead of two per page (`SQLiteWALBuffer`, a VFS over
/// SQLite's default one, used by every `SQLiteStorage` file).
@Suite("Storage: a commit's WAL frames written at once", .timeLimit(.minutes(1)))
struct SQLiteWALBufferTests {
    @Test("a 2 MB transaction and small ones commit through the buffer; every row reads back after reopening")
    func largeAndSmallTransactions() async throws {
        try await TestDatabases.withSQLitePath { path in
            let framesBefore = sqlite_wal_buffer_frames()
            let database = try await SQLiteStorage.open(path: path)
            try await database.query("CREATE TABLE blobs (id BIGINT PRIMARY KEY, data BLOB NOT NULL)")
            // About 2,000 pages in one transaction: past 128 KiB of frames (SQLite's unix VFS writes at most
            // 128 KiB − 1 bytes a call, so the buffer writes in pieces) and past 1 MiB (written before the commit).
            let data = [UInt8](repeating: 0x5A, count: 900)
            try await database.transaction { executor in
                for id in 0..<2_000 {
                    try await executor.query(
                        "INSERT INTO blobs (id, data) VALUES ($1, $2)", [.integer(id), .blob(data)])
                }
            }
            for id in 2_000..<2_050 {
                try await database.query("INSERT INTO blobs (id, data) VALUES ($1, $2)", [.integer(id), .blob(data)])
            }
            #expect(sqlite_wal_buffer_frames() - framesBefore >= 2_050, "the frames did not go through the buffer")
            try await Self.close(database)
            let reopened = try await SQLiteStorage.open(path: path)
            let row = try #require(
                try await reopened.query("SELECT count(*) AS n, sum(length(data)) AS bytes FROM blobs").first)
            #expect(try row.integer("n") == 2_050 && row.integer("bytes") == 2_050 * 900)
            try await Self.close(reopened)
        }
    }

    /// Shuts the storage down as `tap serve` does: its service's `run` returns once the task is cancelled.
    private static func close(_ database: SQLiteStorage) async throws {
        let service = Task { try await database.run() }
        service.cancel()
        try await service.value
    }
}
