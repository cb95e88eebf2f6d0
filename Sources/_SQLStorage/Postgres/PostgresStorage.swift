import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import _ConnectionPoolModule

/// The production database: PostgreSQL through postgres-nio's connection pool (`PostgresClient`), whose `run()` is
/// this service's.
///
/// Transactions run at READ COMMITTED; repositories lock the rows they change with ``SQLDialect/forUpdate``. A
/// transaction that loses a deadlock (`40P01`) or a serialization conflict (`40001`) is rolled back and its body run
/// again, up to ``transactionAttempts`` times in all, so a body must do nothing but database work through its executor.
/// After the last attempt the error is ``StorageError/Code/transactionConflict``, which callers may retry.
///
/// Errors carry the SQLSTATE and the constraint or table name only: PostgreSQL's messages and details quote key
/// values, and bound values are never logged (postgres-nio prints them as `****`).
public final class PostgresStorage: SQLDatabase {
    /// Always ``SQLDialect/postgres``.
    public let dialect = SQLDialect.postgres
    /// How many times a transaction runs before a deadlock or serialization conflict is reported.
    public static let transactionAttempts = 5

    /// The server and database, password hidden in its description.
    public let url: PostgresURL
    private let client: PostgresClient
    private let logger: Logger

    /// Creates a pool for the database at `url` (`postgres://user:password@host:port/database`); it connects once
    /// ``run()`` runs.
    /// - Parameter maximumConnections: the pool's size per gateway node.
    /// - Throws: ``StorageError/Code/connectionFailed`` for a malformed URL.
    public convenience init(
        url: String, maximumConnections: Int = 20, logger: Logger = Logger(label: "contactless.postgres")
    ) throws(StorageError) {
        self.init(url: try PostgresURL(url), maximumConnections: maximumConnections, logger: logger)
    }

    /// Creates a pool for the database at `url`; it connects once ``run()`` runs.
    public init(url: PostgresURL, maximumConnections: Int = 20, logger: Logger = Logger(label: "contactless.postgres"))
    {
        let tls: PostgresClient.Configuration.TLS =
            switch url.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
            tls: tls)
        configuration.options.maximumConnections = max(1, maximumConnections)
        self.url = url
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs the connection pool until the service group shuts down (or the task is cancelled).
    public func run() async throws {
        await client.run()
    }

    /// Connects once, outside the pool, and runs `SELECT 1`: a server that is down or refuses the login fails here
    /// within the connect timeout, where the pool would keep retrying (its statements fail only after a minute of
    /// failed attempts). `tap serve` calls it before it starts serving.
    /// - Throws: ``StorageError/Code/connectionFailed``.
    public func checkConnection() async throws(StorageError) {
        do {
            let tls: PostgresConnection.Configuration.TLS =
                switch url.tls {
                case .disable: .disable
                case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            let configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.username, password: url.password,
                database: url.database, tls: tls)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            do {
                try await connection.query("SELECT 1", logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        } catch {
            let failure = Self.storageError(error)
            throw failure.code == .connectionFailed
                ? failure : StorageError(.connectionFailed, "PostgreSQL at \(url) is not usable: \(failure.message)")
        }
    }

    /// Runs one statement on a pooled connection, outside any transaction.
    public func query(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
        let query = PostgresQuery(unsafeSQL: sql, binds: Self.bindings(binds))
        do {
            return try await Self.rows(client.query(query, logger: logger))
        } catch {
            throw Self.storageError(error)
        }
    }

    /// Runs `body` in one transaction on one pooled connection: committed when it returns, rolled back when it throws,
    /// run again (a few times) when PostgreSQL reports a serialisation conflict.
    public func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try await attemptTransaction(body)
            } catch let error as StorageError where error.code == .transactionConflict {
                guard attempt < Self.transactionAttempts else { throw error }
                logger.debug("transaction conflict, retrying", metadata: ["attempt": "\(attempt)"])
                attempt += 1
                // A short random pause, growing with each attempt, so the transactions that collided part ways.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...5) * attempt))
            }
        }
    }

    private func attemptTransaction<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let executor = Executor(connection: connection, logger: logger)
                let result = try await body(executor)
                try executor.failure.check()
                return result
            }
        } catch let error as PostgresTransactionError {
            // The body's own error (rolled back): the caller's, unchanged.
            if let closureError = error.closureError { throw closureError }
            throw Self.storageError(error.beginError ?? error.commitError ?? error)
        } catch {
            throw Self.storageError(error)
        }
    }

    /// A transaction's executor: statements on its one leased connection.
    private struct Executor: SQLExecutor {
        let connection: PostgresConnection
        let logger: Logger
        let failure = StatementFailure()
        var dialect: SQLDialect { .postgres }

        func query(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
            let query = PostgresQuery(unsafeSQL: sql, binds: PostgresStorage.bindings(binds))
            do {
                return try await PostgresStorage.rows(connection.query(query, logger: logger))
            } catch {
                throw failure.record(PostgresStorage.storageError(error))
            }
        }
    }
}

extension PostgresStorage {
    /// Int as int8, String as text, bytes as bytea, NULL untyped.
    fileprivate static func bindings(_ values: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .integer(let integer): bindings.append(integer)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        return bindings
    }

    fileprivate static func rows(_ sequence: PostgresRowSequence) async throws -> [SQLRow] {
        var rows: [SQLRow] = []
        var columns: SQLColumns?
        for try await row in sequence {
            let names = columns == nil ? row.map(\.columnName) : []
            let shared = columns ?? SQLColumns(names)
            columns = shared
            var values: [SQLValue] = []
            values.reserveCapacity(shared.count)
            for cell in row { values.append(try value(cell)) }
            rows.append(SQLRow(columns: shared, values: values))
        }
        return rows
    }

    /// A cell by its column's type: integers (and booleans as 0/1), text, bytes, NULL; an integral NUMERIC (what
    /// `SUM` of a BIGINT gives) as an integer.
    private static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
        case .bytea: return .blob(Array(try cell.decode(ByteBuffer.self).readableBytesView))
        case .void: return .null
        case .numeric:
            guard let integer = Int(try cell.decode(Decimal.self).description) else {
                throw StorageError(.corruptRow, "column \(cell.columnName) is a NUMERIC that is not a 64-bit integer")
            }
            return .integer(integer)
        default:
            throw StorageError(.corruptRow, "column \(cell.columnName) has the unsupported type \(cell.dataType)")
        }
    }

    /// SQLSTATE classes of a failure that a retry of the whole transaction can cure.
    private static let conflictStates: Set<String> = ["40001", "40P01"]

    /// The storage error for a postgres-nio failure: the SQLSTATE and constraint or table, never the server's
    /// message or detail (they quote values), never the statement's binds.
    fileprivate static func storageError(_ error: any Error) -> StorageError {
        switch error {
        case let error as StorageError:
            return error
        case let error as PSQLError where error.code == .server:
            let state = error.serverInfo?[.sqlState] ?? "?????"
            let object = (error.serverInfo?[.constraintName] ?? error.serverInfo?[.tableName]).map { " on \($0)" } ?? ""
            if state == "23505" {
                return StorageError(.uniqueViolation, "a unique key is taken (SQLSTATE \(state)\(object))")
            }
            // Connection exceptions, failed logins, a missing database, an administrator's shutdown.
            if ["08", "28", "3D", "57"].contains(state.prefix(2)) {
                return StorageError(
                    .connectionFailed, "PostgreSQL refused or dropped the connection (SQLSTATE \(state))")
            }
            if conflictStates.contains(state) {
                return StorageError(.transactionConflict, "the transaction conflicted with another (SQLSTATE \(state))")
            }
            return StorageError(.queryFailed, "a statement failed (SQLSTATE \(state)\(object))")
        case let error as PSQLError where error.code == .queryCancelled:
            return StorageError(.queryFailed, "a statement was cancelled")
        case let error as PSQLError:
            return StorageError(.connectionFailed, "PostgreSQL is unreachable (\(error.code))")
        case let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped:
            return StorageError(.connectionFailed, "PostgreSQL has been unreachable for a minute")
        case let error as ConnectionPoolError where error == .poolShutdown:
            return StorageError(.connectionFailed, "the PostgreSQL connection pool is shut down")
        case let error as PostgresDecodingError:
            return StorageError(.corruptRow, "column \(error.columnName) does not decode (\(error.code))")
        case is CancellationError:
            return StorageError(.queryFailed, "a statement was cancelled")
        default:
            return StorageError(.queryFailed, "a statement failed (\(type(of: error)))")
        }
    }
}
