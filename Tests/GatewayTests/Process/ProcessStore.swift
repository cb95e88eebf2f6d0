import _SQLStorage
import ContactlessTesting
import Foundation
import Gateway
import Issuer
import Logging
import Testing

/// Where the gateway processes of one test keep their data: a fresh data directory (the key file, and the SQLite
/// file) and, for PostgreSQL, a fresh database; both go when the test ends.
struct ProcessStore: Sendable {
    let dataDirectory: URL
    /// The PostgreSQL database's URL; nil for SQLite.
    let databaseURL: String?

    /// The options of `tap serve` and `tap merchant` that point at this store.
    var arguments: [String] { ["--data-dir", dataDirectory.path] + (databaseURL.map { ["--database", $0] } ?? []) }

    /// Runs `body` with a fresh store on `kind`.
    static func with(_ kind: TestDatabases.Kind, _ body: (ProcessStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tap-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        switch kind {
        case .sqlite: try await body(ProcessStore(dataDirectory: directory, databaseURL: nil))
        case .postgres:
            try await TestDatabases.withPostgresDatabase { url in
                try await body(ProcessStore(dataDirectory: directory, databaseURL: url.description))
            }
        }
    }

    /// Runs `body` on the database from the test process (after the server stopped, or beside it on PostgreSQL).
    func withDatabase<Result: Sendable>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        let quiet = Logger(label: "contactless.test.process", factory: { _ in SwiftLogNoOpLogHandler() })
        let database = try await GatewayDatabase.open(
            dataDirectory: dataDirectory, databaseURL: databaseURL, logger: quiet)
        return try await database.whileRunning(logger: quiet) { try await body(database) }
    }

    /// The keys of the issuer that ran inside the gateway on this store: its data keys come from the key file.
    func embeddedIssuerKeys() throws -> IssuerKeys {
        let keys = try GatewayKeys.load(from: dataDirectory.appendingPathComponent(GatewayKeys.fileName))
        return try IssuerKeys.test(dataKeysFrom: try #require(keys.embeddedIssuerSecret))
    }
}
