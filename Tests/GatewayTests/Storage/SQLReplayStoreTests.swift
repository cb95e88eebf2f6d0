import _SQLStorage
import ContactlessTesting
import Foundation
import Gateway
import Testing

@Suite("Storage: the SQL replay store")
struct SQLReplayStoreTests {
    static let now = Date(timeIntervalSince1970: 1_795_003_600)

    @Test("a read id is recorded once; other ids are independent", arguments: TestDatabases.kinds)
    func once(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind) { database in
            let store = SQLReplayStore(database: database)
            let read = UUID()
            let expiry = Self.now.addingTimeInterval(60)
            let first = try await store.recordOpened(readId: read, expiresAt: expiry, now: Self.now)
            let again = try await store.recordOpened(
                readId: read, expiresAt: expiry, now: Self.now.addingTimeInterval(1))
            let other = try await store.recordOpened(readId: UUID(), expiresAt: expiry, now: Self.now)
            // Another node (another store over the same database) sees the read too.
            let elsewhere = try await SQLReplayStore(database: database).recordOpened(
                readId: read, expiresAt: expiry, now: Self.now)
            #expect([first, again, other, elsewhere] == [true, false, true, false])
        }
    }

    @Test("expired reads are purged; unexpired ones stay", arguments: TestDatabases.kinds)
    func purge(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind) { database in
            let store = SQLReplayStore(database: database, purgeInterval: 0)
            let (old, young) = (UUID(), UUID())
            let later = Self.now.addingTimeInterval(30)
            let recorded = [
                try await store.recordOpened(readId: old, expiresAt: Self.now.addingTimeInterval(10), now: Self.now),
                try await store.recordOpened(readId: young, expiresAt: Self.now.addingTimeInterval(60), now: Self.now),
                try await store.recordOpened(readId: UUID(), expiresAt: later.addingTimeInterval(60), now: later),
            ]
            #expect(recorded == [true, true, true])
            let left = try await database.query("SELECT read_id FROM opened_reads ORDER BY expires_at")
            #expect(left.count == 2)
            #expect(try left.first?.text("read_id") == young.uuidString.lowercased())
            let replayed = try await store.recordOpened(
                readId: young, expiresAt: Self.now.addingTimeInterval(60), now: later)
            #expect(!replayed)
        }
    }

    @Test("20 concurrent opens of one read id: exactly one is first", arguments: TestDatabases.kinds)
    func concurrentOpens(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind) { database in
            let read = UUID()
            let firsts = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await SQLReplayStore(database: database, purgeInterval: 0).recordOpened(
                            readId: read, expiresAt: Self.now.addingTimeInterval(60), now: Self.now)
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(firsts == 1)
        }
    }
}
