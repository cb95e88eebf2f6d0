public import Foundation
public import Logging

/// Opens the gateway's database the way `tap serve` and `tap merchant` are told to: a SQLite file under the data
/// directory by default, or PostgreSQL for a `postgres://` URL, migrated to the current schema.
public enum GatewayDatabase {
    /// The data directory when none is given: `./.tap`.
    public static let defaultDataDirectory = ".tap"
    /// The SQLite file's name in the data directory.
    public static let sqliteFileName = "gateway.sqlite"

    /// Opens and migrates the database: PostgreSQL at `databaseURL` when given, else the SQLite file in
    /// `dataDirectory` (created with mode 0700 if missing).
    ///
    /// Run the returned database in the service group (it is a `Service`); a CLI that only runs a few statements
    /// can use it without.
    /// - Throws: ``StorageError/Code/connectionFailed`` (also for a URL of another scheme),
    ///   ``StorageError/Code/migrationFailed``.
    public static func open(
        dataDirectory: URL, databaseURL: String? = nil, logger: Logger = Logger(label: "contactless.gateway.storage")
    ) async throws(StorageError) -> any SQLDatabase {
        let database: any SQLDatabase
        if let databaseURL {
            guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else {
                throw StorageError(.connectionFailed, "--database takes a postgres:// URL")
            }
            // PostgresStorage lands separately; until then a postgres URL is refused rather than ignored.
            throw StorageError(.connectionFailed, "PostgreSQL storage is not available in this build yet")
        } else {
            do {
                try FileManager.default.createDirectory(
                    at: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(.connectionFailed, "cannot create the data directory \(dataDirectory.path)")
            }
            database = try await SQLiteStorage.open(
                path: dataDirectory.appendingPathComponent(sqliteFileName).path, logger: logger)
        }
        try await Migrator(schema: GatewaySchema.name, migrations: GatewaySchema.migrations).migrate(database)
        return database
    }
}
