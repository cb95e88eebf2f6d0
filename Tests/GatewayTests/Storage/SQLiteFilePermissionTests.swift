import Foundation
import Gateway
import Logging
import Testing
import _SQLStorage

@Suite("Storage: SQLite files are private")
struct SQLiteFilePermissionTests {
    private static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
            & 0o777
    }

    @Test("a new database and its -wal and -shm are 0600 whatever the umask; an old 0644 file is narrowed")
    func privateFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sqlite-mode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(GatewayDatabase.sqliteFileName).path
        // A permissive umask, as a shell's default would be.
        let previous = umask(0o022)
        defer { umask(previous) }
        let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        try await GatewayDatabase.with(dataDirectory: directory, logger: quiet) { database in
            try await database.query("CREATE TABLE probe (id BIGINT)")
            try await database.query("INSERT INTO probe (id) VALUES (1)")
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                #expect(try Self.mode(path + suffix) == 0o600, "\(suffix)")
            }
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        #expect(try Self.mode(path) == 0o600)

        // A file an earlier version left readable by others.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try await GatewayDatabase.with(dataDirectory: directory, logger: quiet) { database in
            try await database.query("INSERT INTO probe (id) VALUES (2)")
            #expect(try Self.mode(path) == 0o600)
        }
    }
}
