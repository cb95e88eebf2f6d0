public import Foundation
public import Gateway
public import Issuer
import Logging
public import _SQLStorage

/// Fresh, migrated databases for tests: a SQLite file in the temporary directory and, when
/// `CONTACTLESS_POSTGRES_URL` is set (scripts/test starts a private PostgreSQL and sets it), a PostgreSQL database
/// created for the one test and dropped after it. Each database's service runs for the test's duration.
///
/// ```swift
/// @Test(arguments: TestDatabases.kinds)
/// func something(_ kind: TestDatabases.Kind) async throws {
///     try await TestDatabases.with(kind) { database in … }
/// }
/// ```
/// Without the variable only SQLite runs, and ``PostgresAvailabilityTests`` shows PostgreSQL as skipped (or fails,
/// when `CI` is set, so CI never silently skips PostgreSQL).
public enum TestDatabases {
    /// Which database.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case sqlite, postgres
        /// The database's name, as tests' arguments show it.
        public var description: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
    }

    /// The admin URL of the test PostgreSQL server; nil when PostgreSQL cases are skipped.
    public static let postgresURL: String? = ProcessInfo.processInfo.environment["CONTACTLESS_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The databases to run on: SQLite always, PostgreSQL when configured.
    public static let kinds: [Kind] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]

    /// The gateway's schema, the default for ``with(_:migrating:_:)``.
    public static let gateway = [GatewaySchema.migrator]
    /// The issuer's schema.
    public static let issuer = [IssuerSchema.migrator]

    /// Runs `body` with a fresh database of `kind`, migrated by `migrators` in order, its service running.
    public static func with<Result: Sendable>(
        _ kind: Kind, migrating migrators: [Migrator] = gateway,
        _ body: (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        switch kind {
        case .sqlite: try await withSQLite(migrators, body)
        case .postgres: try await withPostgres(migrators, body)
        }
    }

    /// Runs `body` once per database in ``kinds``, each fresh.
    public static func withEach(
        migrating migrators: [Migrator] = gateway, _ body: (any SQLDatabase) async throws -> Void
    ) async throws {
        for kind in kinds { try await with(kind, migrating: migrators, body) }
    }

    private static func withSQLite<Result: Sendable>(
        _ migrators: [Migrator], _ body: (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await withSQLitePath { path in
            let database = try await SQLiteStorage.open(path: path)
            return try await database.whileRunning(logger: quiet) {
                for migrator in migrators { try await migrator.migrate(database) }
                return try await body(database)
            }
        }
    }

    /// Runs `body` with the path of a new SQLite file in the temporary directory, removed (with its WAL and shared
    /// memory files) afterwards.
    public static func withSQLitePath<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "contactless-test-\(UUID().uuidString).sqlite"
        ).path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        return try await body(path)
    }

    private static func withPostgres<Result: Sendable>(
        _ migrators: [Migrator], _ body: (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await withPostgresDatabase { url in
            let database = PostgresStorage(url: url, maximumConnections: 10, logger: quiet)
            return try await database.whileRunning(logger: quiet) {
                for migrator in migrators { try await migrator.migrate(database) }
                return try await body(database)
            }
        }
    }

    /// Runs `body` with the URL of a PostgreSQL database created for it and dropped after it (whatever `body` does).
    public static func withPostgresDatabase<Result: Sendable>(
        _ body: (PostgresURL) async throws -> Result
    ) async throws -> Result {
        guard let postgresURL else { throw TestDatabasesError.postgresNotConfigured }
        let adminURL = try PostgresURL(postgresURL)
        let admin = PostgresStorage(url: adminURL, maximumConnections: 1, logger: quiet)
        let name = "contactless_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        return try await admin.whileRunning(logger: quiet) {
            try await admin.query("CREATE DATABASE \(name)")
            let outcome: Swift.Result<Result, any Error>
            do {
                outcome = .success(try await body(adminURL.with(database: name)))
            } catch {
                outcome = .failure(error)
            }
            try await admin.query("DROP DATABASE \(name) WITH (FORCE)")
            return try outcome.get()
        }
    }

    /// postgres-nio's background logging off: a test's failures show in its expectations.
    private static let quiet = Logger(label: "contactless.test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// A PostgreSQL test ran without `CONTACTLESS_POSTGRES_URL`.
public enum TestDatabasesError: Error {
    case postgresNotConfigured
}
