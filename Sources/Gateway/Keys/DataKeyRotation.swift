import Foundation
import GatewayAPI
import Logging
import ServiceLifecycle
public import _SQLStorage

/// Rotates the data key while gateways run (envelope encryption, see ``DataKeyRing``):
/// 1. a new data key, wrapped by the key file's key, goes into `data_keys`, current from ``activationDelay`` on,
///    so that every node has loaded it (they refresh every second) before that time, and every node switches to it
///    at that time;
/// 2. after ``settle`` more — longer than any request runs, so that a request that sealed a value under the older
///    key before the switch has written it by then — every value sealed under another key (the devices' PIN keys,
///    payments' reversal messages and pending card data, Apple Pay private keys) is opened and sealed again under
///    it, a batch per transaction with the rows locked; passes repeat until one finds nothing left;
/// 3. the older data keys are deleted: nothing is sealed under them any more.
///
/// The key file's own key (the key-encryption key) is not rotated here: it wraps only the data keys.
public struct DataKeyRotation: Sendable {
    /// A column that holds values sealed under the data key, and the data each value is bound to.
    struct SealedColumn: Sendable {
        let table: String
        let keyColumns: [String]
        let column: String
        let authenticatedData: @Sendable (SQLRow) throws -> [UInt8]
    }

    /// Every column the gateway seals under the data key.
    static let sealedColumns: [SealedColumn] = [
        SealedColumn(table: "merchant_devices", keyColumns: ["merchant_id", "id"], column: "pin_key") { row in
            PINEncryptionKey.authenticatedData(merchantId: try row.text("merchant_id"), deviceId: try row.text("id"))
        },
        SealedColumn(table: "payments", keyColumns: ["id"], column: "reversal_message") { row in
            Array(try row.text("id").utf8)
        },
        SealedColumn(table: "payments", keyColumns: ["id"], column: "pending_card_data") { row in
            Array(try row.text("id").utf8)
        },
        SealedColumn(table: "applepay_identities", keyColumns: ["id"], column: "sealed_private_key") { row in
            ApplePayIdentityRepository.authenticatedData(id: try row.text("id"))
        },
    ]

    /// What a rotation did.
    public struct Report: Sendable, Encodable {
        /// The new current data key.
        public var keyId: String
        /// Values sealed again under it, by `table.column`.
        public var resealed: [String: Int]
        /// Older data keys deleted.
        public var retiredKeys: [String]
    }

    let database: any SQLDatabase
    let keys: GatewayKeys
    /// How long after it is stored the new key becomes current: longer than the nodes' refresh interval.
    let activationDelay: Duration
    /// How long after that values are sealed again: longer than the longest request (the issuer timeout and more).
    let settle: Duration
    let batchSize: Int

    /// A rotation of `keys`' data keys in `database`.
    public init(
        database: any SQLDatabase, keys: GatewayKeys, activationDelay: Duration = .seconds(5),
        settle: Duration = .seconds(10), batchSize: Int = 500
    ) {
        self.database = database
        self.keys = keys
        self.activationDelay = activationDelay
        self.settle = settle
        self.batchSize = batchSize
    }

    /// Runs the three steps; `progress` hears of each.
    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        let id = EntityID.make("dk")
        let now = Date()
        let activation = now.addingTimeInterval(activationDelay.timeInterval)
        try await database.query(
            "INSERT INTO data_keys (id, wrapped_key, created_at, activated_at) VALUES ($1, $2, $3, $4)",
            [.text(id), .blob(keys.dataKeyRing.wrapNewKey(id: id)), .integer(now.millis), .integer(activation.millis)])
        progress("data key \(id) stored; current from \(activation)")
        try await DataKeyStore(database: database).load(into: keys.dataKeyRing)
        try await Task.sleep(for: activationDelay + settle)
        guard keys.dataKeyRing.currentKeyId == id else {
            throw GatewayKeysError(.cannotOpen, "data key \(id) did not become current")
        }
        var resealed: [String: Int] = [:]
        for pass in 1...5 {
            var found = 0
            for column in Self.sealedColumns {
                let count = try await reseal(column, to: id)
                resealed["\(column.table).\(column.column)", default: 0] += count
                found += count
                progress("pass \(pass): \(column.table).\(column.column): \(count) values sealed again")
            }
            if found == 0 { break }
            guard pass < 5 else { throw GatewayKeysError(.cannotOpen, "values kept appearing under older keys") }
        }
        let older = try await database.query("SELECT id FROM data_keys WHERE id <> $1", [.text(id)]).map {
            try $0.text("id")
        }
        try await database.query("DELETE FROM data_keys WHERE id <> $1", [.text(id)])
        return Report(keyId: id, resealed: resealed, retiredKeys: older)
    }

    /// Seals every value of `column` not under `keyId` again under it; returns how many.
    private func reseal(_ column: SealedColumn, to keyId: String) async throws -> Int {
        let ring = keys.dataKeyRing
        let keyList = column.keyColumns.joined(separator: ", ")
        let order = column.keyColumns.joined(separator: ", ")
        var after: [SQLValue]? = nil
        var count = 0
        while true {
            // Keyset pagination over the primary key, so each batch is an index range.
            var binds: [SQLValue] = []
            var condition = "\(column.column) IS NOT NULL"
            if let after {
                let placeholders = (1...after.count).map { "$\($0)" }.joined(separator: ", ")
                condition += " AND (\(keyList)) > (\(placeholders))"
                binds = after
            }
            binds.append(.integer(batchSize))
            let select =
                "SELECT \(keyList), \(column.column) FROM \(column.table) WHERE \(condition) ORDER BY \(order) "
                + "LIMIT $\(binds.count)"
            let selectBinds = binds
            let batch = try await database.transaction { executor in
                let rows = try await executor.query(select + executor.dialect.forUpdate, selectBinds)
                var changed = 0
                for row in rows {
                    let sealed = try row.blob(column.column)
                    guard ring.keyId(of: sealed) != keyId else { continue }
                    let aad = try column.authenticatedData(row)
                    let plaintext = try keys.open(sealed, authenticating: aad)
                    let keyValues = try column.keyColumns.map { SQLValue.text(try row.text($0)) }
                    let placeholders = column.keyColumns.enumerated().map { "\($1) = $\($0 + 2)" }
                    try await executor.query(
                        "UPDATE \(column.table) SET \(column.column) = $1 WHERE "
                            + placeholders.joined(separator: " AND "),
                        [.blob(keys.seal(plaintext, authenticating: aad))] + keyValues)
                    changed += 1
                }
                let last = try rows.last.map { row in try column.keyColumns.map { SQLValue.text(try row.text($0)) } }
                return (rows.count, changed, last)
            }
            count += batch.1
            guard batch.0 == batchSize, let last = batch.2 else { return count }
            after = last
        }
    }
}

/// The data keys in the database (`data_keys`).
public struct DataKeyStore: Sendable {
    let database: any SQLDatabase

    /// The data keys of `database`.
    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Loads every data key into `ring`.
    public func load(into ring: DataKeyRing) async throws {
        let rows = try await database.query("SELECT id, wrapped_key, activated_at FROM data_keys", [])
        try ring.load(
            try rows.map { row in
                (try row.text("id"), try row.blob("wrapped_key"), Date(millis: try row.integer("activated_at")))
            })
    }
}

/// Keeps a node's ``DataKeyRing`` in step with `data_keys`: loads it before the server serves (see
/// ``GatewayApplication``), then every ``interval``.
struct DataKeyRefresh: Service {
    let store: DataKeyStore
    let ring: DataKeyRing
    let interval: Duration
    let logger: Logger
    let startup: StartupGate

    func run() async throws {
        await StartupGate.repeatEvery(interval, after: startup, logger: logger, failure: "data keys not refreshed") {
            try await store.load(into: ring)
        }
    }
}
