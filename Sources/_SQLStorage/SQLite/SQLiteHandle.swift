import Foundation
import SQLiteWALBuffer
import VaporCSQLite

/// The SQLite connection itself, driven in place: statements run on the calling thread, prepared once and kept.
///
/// ``SQLiteStorage`` used sqlite-nio's connection, which runs every statement on a thread pool and resumes the
/// caller afterwards: two thread hand-offs per statement, on the path that SQLite's one writer makes serial. With
/// some twenty statements per authorization those hand-offs, not SQLite, bounded the gateway's rate. A statement
/// takes microseconds, so running it where the caller is (``SQLiteThread``) costs less than handing it off.
///
/// Not thread-safe by itself: ``SQLiteStorage`` calls it only while holding its lock (``SQLiteCommitGroup``).
final class SQLiteHandle: @unchecked Sendable {
    /// A failed call: SQLite's extended result code and message (which may quote values: never shown to users).
    struct Failure: Error {
        let code: Int32
        let message: String

        /// A `UNIQUE` or `PRIMARY KEY` constraint.
        var isUniqueViolation: Bool { code == 2067 || code == 1555 }
    }

    private var database: OpaquePointer?
    /// Where the WAL hook reports each commit's WAL size (``checkpoint(with:)``); kept alive by this handle.
    private var checkpointer: SQLiteCheckpointer?
    /// Prepared statements by SQL text, with their column names; the gateway's statements are a fixed set.
    private var statements: [String: Prepared] = [:]
    private static let initialization = NSLock()
    /// How long a statement waits for another connection's write lock before SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 5_000
    nonisolated(unsafe) private static var initialized = false
    nonisolated(unsafe) private static var walBuffer = false

    /// Opens (creating if needed) the file at `path`, or an in-memory database for nil.
    init(path: String?) throws(Failure) {
        Self.initialization.withLock {
            if !Self.initialized {
                sqlite_nio_sqlite3_initialize()
                Self.walBuffer = sqlite_wal_buffer_register() == SQLITE_OK
                Self.initialized = true
            }
        }
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE
        var handle: OpaquePointer?
        // A commit's WAL frames in one write instead of two per page (see SQLiteWALBuffer).
        let result = sqlite_nio_sqlite3_open_v2(
            path ?? ":memory:", &handle, flags, Self.walBuffer ? SQLITE_WAL_BUFFER_VFS : nil)
        guard result == SQLITE_OK, let handle else {
            sqlite_nio_sqlite3_close(handle)
            throw Failure(code: result, message: "cannot open the database")
        }
        database = handle
        // Another process's write transaction (`tap merchant …` beside a running `tap serve`) is waited for rather
        // than failing at once with SQLITE_BUSY; both sides hold the write lock for milliseconds.
        sqlite_nio_sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    }

    deinit { close() }

    /// Whether a transaction is open: after a failed statement, false means SQLite rolled the whole transaction
    /// back (an I/O error, a full disk), not just the statement.
    var isInTransaction: Bool {
        guard let database else { return false }
        return sqlite_nio_sqlite3_get_autocommit(database) == 0
    }

    /// The rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int {
        guard let database else { return 0 }
        return Int(sqlite_nio_sqlite3_changes(database))
    }

    /// Finalizes the statements and closes the connection, and its checkpointer's (again: nothing).
    func close() {
        checkpointer?.close()
        for prepared in statements.values { sqlite_nio_sqlite3_finalize(prepared.statement) }
        statements = [:]
        if let database { sqlite_nio_sqlite3_close(database) }
        database = nil
        checkpointer = nil
    }

    /// Runs one statement (`$N` placeholders, as every dialect's statements are written) with `binds`, returning
    /// its rows.
    func run(_ sql: String, _ binds: [SQLValue]) throws(Failure) -> [SQLRow] {
        let (prepared, kept) = try prepared(sql)
        let statement = prepared.statement
        defer {
            if kept {
                sqlite_nio_sqlite3_reset(statement)
                sqlite_nio_sqlite3_clear_bindings(statement)
            } else {
                sqlite_nio_sqlite3_finalize(statement)
            }
        }
        for (offset, value) in binds.enumerated() {
            try check(bind(value, at: Int32(offset + 1), of: statement))
        }
        var columns = prepared.columns
        var rows: [SQLRow] = []
        while true {
            let result = sqlite_nio_sqlite3_step(statement)
            if result == SQLITE_DONE { return rows }
            guard result == SQLITE_ROW else { throw failure(result) }
            // A step after a schema change prepares the statement again: a `SELECT *` may have other columns.
            if rows.isEmpty, Self.preparations(of: statement) != prepared.preparations {
                columns = Self.columns(of: statement)
                if kept { statements[sql] = Prepared(statement, columns) }
            }
            var values: [SQLValue] = []
            values.reserveCapacity(columns.count)
            for index in 0..<Int32(columns.count) { values.append(value(at: index, of: statement)) }
            rows.append(SQLRow(columns: columns, values: values))
        }
    }

    /// Syncs the write-ahead log to disk through SQLite's own file (the connection commits with
    /// `synchronous=NORMAL`, see ``SQLiteWALSync``). Safe on any thread while the connection is open: it only
    /// fsyncs the file's descriptor.
    func syncWAL() throws(Failure) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        let result = sqlite_nio_sqlite3_file_control(database, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file)
        guard result == SQLITE_OK, let file, let methods = file.pointee.pMethods, let sync = methods.pointee.xSync
        else { throw Failure(code: result == SQLITE_OK ? SQLITE_MISUSE : result, message: "no write-ahead log") }
        let synced = sync(file, SQLITE_SYNC_NORMAL)
        guard synced == SQLITE_OK else { throw Failure(code: synced, message: "cannot sync the write-ahead log") }
    }

    /// Reports the WAL's size after every commit to `checkpointer` instead of running SQLite's automatic
    /// checkpoint (the hook replaces it; see ``SQLiteCheckpointer``).
    func checkpoint(with checkpointer: SQLiteCheckpointer) {
        self.checkpointer = checkpointer
        let hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
            context, _, _, frames in
            // Called inside this handle's own COMMIT, so the handle is alive.
            guard let context else { return SQLITE_OK }
            let handle = Unmanaged<SQLiteHandle>.fromOpaque(context).takeUnretainedValue()
            handle.checkpointer?.walGrew(to: frames, writer: handle)
            return SQLITE_OK
        }
        sqlite_nio_sqlite3_wal_hook(database, hook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Copies into the database file what of the WAL no reader still needs, waiting for no one. Its outcome is not
    /// reported, as SQLite's automatic checkpoint does not: one that could not run (another was running) or
    /// failed leaves the frames in the WAL, and the next one tries again.
    func checkpointPassive() {
        _ = sqlite_nio_sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// A prepared statement and the names of its result columns, read once rather than on every run (and a row
    /// is its values only, not a dictionary), with how many times SQLite had prepared it then.
    private struct Prepared {
        let statement: OpaquePointer
        let columns: SQLColumns
        let preparations: Int32

        init(_ statement: OpaquePointer, _ columns: SQLColumns) {
            self.statement = statement
            self.columns = columns
            preparations = SQLiteHandle.preparations(of: statement)
        }
    }

    /// The statement for `sql`: the kept one, or a new one, kept if there is room (`kept` false: finalize it
    /// after its run).
    private func prepared(_ sql: String) throws(Failure) -> (Prepared, kept: Bool) {
        // Kept by the text as written: its placeholders are rewritten once, when it is prepared.
        if let prepared = statements[sql] { return (prepared, true) }
        var statement: OpaquePointer?
        let persistent = UInt32(SQLITE_PREPARE_PERSISTENT)
        let result = sqlite_nio_sqlite3_prepare_v3(
            database, SQLDialect.sqlite.placeholders(sql), -1, persistent, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw failure(result) }
        let prepared = Prepared(statement, Self.columns(of: statement))
        // Only statements that run on every request are worth keeping; a handful of ad-hoc ones would not hurt,
        // but bound the cache all the same.
        guard statements.count < 256 else { return (prepared, false) }
        statements[sql] = prepared
        return (prepared, true)
    }

    private static func columns(of statement: OpaquePointer) -> SQLColumns {
        SQLColumns(
            (0..<sqlite_nio_sqlite3_column_count(statement)).map { index in
                sqlite_nio_sqlite3_column_name(statement, index).map { String(cString: $0) } ?? ""
            })
    }

    /// How many times SQLite has prepared `statement` again (after schema changes).
    private static func preparations(of statement: OpaquePointer) -> Int32 {
        sqlite_nio_sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    private func bind(_ value: SQLValue, at index: Int32, of statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .text(let text):
            return sqlite_nio_sqlite3_bind_text64(
                statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .blob(let bytes):
            return bytes.withUnsafeBytes { buffer in
                // A zero-length blob still needs a non-nil pointer, or SQLite binds NULL.
                sqlite_nio_sqlite3_bind_blob64(
                    statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count),
                    Self.transient)
            }
        case .null:
            return sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func value(at index: Int32, of statement: OpaquePointer) -> SQLValue {
        switch sqlite_nio_sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, index)))
        case SQLITE_FLOAT:
            // No schema here has REAL columns; one that holds no 64-bit integer reads as NULL rather than trapping.
            let double = sqlite_nio_sqlite3_column_double(statement, index)
            return Int(exactly: double.rounded(.towardZero)).map(SQLValue.integer) ?? .null
        case SQLITE_TEXT:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
            guard let text = sqlite_nio_sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
            guard let blob = sqlite_nio_sqlite3_column_blob(statement, index), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    private func check(_ result: Int32) throws(Failure) {
        guard result == SQLITE_OK else { throw failure(result) }
    }

    private func failure(_ result: Int32) -> Failure {
        let message = sqlite_nio_sqlite3_errmsg(database).map { String(cString: $0) } ?? "unknown"
        return Failure(code: sqlite_nio_sqlite3_extended_errcode(database), message: message)
    }

    /// SQLite copies bound values before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
