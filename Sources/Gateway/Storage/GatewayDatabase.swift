public import Foundation
public import Logging
public import _SQLStorage

/// Opens the gateway's database the way `tap serve` and `tap merchant` are told to: a SQLite file under the data
/// directory by default, or PostgreSQL (``PostgresStorage``) for a `postgres://` URL.
///
/// A database is a `Service` that must run while it is used (PostgreSQL's pool lives in `run()`) and is closed
/// when its service ends: a server puts it in its service group and calls ``migrate(_:)`` once it runs; a command
/// that only runs a few statements uses ``with(dataDirectory:databaseURL:logger:_:)``.
public enum GatewayDatabase {
    /// The data directory when none is given: `./.tap`.
    public static let defaultDataDirectory = ".tap"
    /// The SQLite file's name in the data directory.
    public static let sqliteFileName = "gateway.sqlite"

    /// Opens the database, not yet migrated: PostgreSQL at `databaseURL` when given, else the SQLite file in
    /// `dataDirectory` (created with mode 0700 if missing).
    /// - Throws: ``StorageError/Code/connectionFailed`` (also for a malformed URL, or a PostgreSQL server that
    ///   cannot be reached now: the pool would otherwise retry it for a minute).
    public static func open(
        dataDirectory: URL, databaseURL: String? = nil, logger: Logger = Logger(label: "contactless.gateway.storage")
    ) async throws(StorageError) -> any SQLDatabase {
        if let databaseURL {
            guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else {
                throw StorageError(.connectionFailed, "--database takes a postgres:// URL")
            }
            let storage = try PostgresStorage(url: databaseURL, logger: logger)
            // The pool would retry an unreachable server for a minute; a wrong URL or a server that is down fails here.
            try await storage.checkConnection()
            return storage
        }
        do {
            try FileManager.default.createDirectory(
                at: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(.connectionFailed, "cannot create the data directory \(dataDirectory.path)")
        }
        return try await SQLiteStorage.open(
            path: dataDirectory.appendingPathComponent(sqliteFileName).path, logger: logger)
    }

    /// Brings the gateway's schema up to date (the database's service must be running).
    /// - Throws: ``StorageError/Code/migrationFailed``.
    public static func migrate(_ database: any SQLDatabase) async throws(StorageError) {
        try await Migrator(schema: GatewaySchema.name, migrations: GatewaySchema.migrations).migrate(database)
    }

    /// Opens the database, runs its service, migrates it, runs `body`, then shuts the service down gracefully,
    /// which closes the database (also when `body` throws).
    public static func with<Result: Sendable>(
        dataDirectory: URL, databaseURL: String? = nil,
        logger: Logger = Logger(label: "contactless.gateway.storage"),
        _ body: (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let database = try await open(dataDirectory: dataDirectory, databaseURL: databaseURL, logger: logger)
        return try await database.whileRunning(logger: logger) {
            try await migrate(database)
            return try await body(database)
        }
    }
}
