import Foundation

/// Brings a schema up to date: runs the migrations whose versions are not yet recorded, in order, each in its own
/// transaction together with its record, so a crash leaves the schema at a whole version.
///
/// Several schemas can share one database (the gateway's and the issuer's), each with its own versions.
/// On PostgreSQL the run holds an advisory lock, so gateway nodes starting together migrate once.
public struct Migrator: Sendable {
    /// The schema's name, as recorded in `schema_migrations`.
    public let schema: String
    /// Its steps.
    public let migrations: [Migration]

    /// Creates a migrator for `schema`'s steps.
    public init(schema: String, migrations: [Migration]) {
        self.schema = schema
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Runs the pending steps; returns the versions it ran.
    /// - Throws: ``StorageError/Code/migrationFailed`` naming the step that failed (earlier steps stay).
    @discardableResult
    public func migrate(_ database: any SQLDatabase) async throws(StorageError) -> [Int] {
        try await database.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                schema TEXT NOT NULL, version BIGINT NOT NULL, name TEXT NOT NULL, applied_at BIGINT NOT NULL,
                PRIMARY KEY (schema, version))
            """)
        var applied: [Int] = []
        for migration in migrations {
            do {
                let ran = try await database.transaction { executor in
                    if executor.dialect == .postgres {
                        try await executor.query("SELECT pg_advisory_xact_lock(hashtext($1))", [.text(schema)])
                    }
                    let done = try await executor.query(
                        "SELECT 1 AS done FROM schema_migrations WHERE schema = $1 AND version = $2",
                        [.text(schema), .integer(migration.version)])
                    guard done.isEmpty else { return false }
                    for statement in migration.statements(executor.dialect) {
                        try await executor.query(statement)
                    }
                    try await executor.query(
                        "INSERT INTO schema_migrations (schema, version, name, applied_at) VALUES ($1, $2, $3, $4)",
                        [.text(schema), .integer(migration.version), .text(migration.name), .integer(Date().millis)])
                    return true
                }
                if ran { applied.append(migration.version) }
            } catch {
                throw StorageError(
                    .migrationFailed,
                    "\(schema) migration \(migration.version) (\(migration.name)) failed: \((error as? StorageError)?.message ?? "\(type(of: error))")"
                )
            }
        }
        return applied
    }
}
