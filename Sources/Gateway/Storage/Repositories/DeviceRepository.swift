import EMV
public import Foundation
public import GatewayAPI
public import _SQLStorage

/// Reader devices: each merchant's registration of a device with its own terminal id and PIN encryption key
/// (encrypted under the data key), and the merchants a device used (for ``DeviceMerchantLimit``), in SQL over any
/// ``SQLDatabase``.
///
/// A device id is the SDK's and names a phone, not a merchant's terminal: every lookup takes the merchant too, so
/// one merchant never reaches another's terminal id or PIN key for the same phone.
public struct DeviceRepository: Sendable {
    private let database: any SQLDatabase

    /// Creates the repository.
    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The merchant's device `id`, or nil when the merchant never prepared it.
    public func device(merchantId: String, id: String) async throws -> Device? {
        try await database.query(
            "SELECT * FROM merchant_devices WHERE merchant_id = $1 AND id = $2", [.text(merchantId), .text(id)]
        ).first.map(Self.decode)
    }

    /// Registers device `id` for the merchant with a new unique terminal id; a registration made meanwhile (a
    /// concurrent first prepare) is returned as it is.
    public func register(merchantId: String, id: String, actor: String, now: Date = Date()) async throws -> Device {
        for attempt in 1...5 {
            let device = Device(
                merchantId: merchantId, id: id, terminalId: Device.newTerminalId(),
                provisionedAt: Date(millis: now.millis))
            do {
                try await database.transaction { executor in
                    try await executor.query(
                        """
                        INSERT INTO merchant_devices (merchant_id, id, terminal_id, provisioned_at)
                        VALUES ($1, $2, $3, $4)
                        """, [.text(merchantId), .text(id), .text(device.terminalId), .integer(now.millis)])
                    try await AuditLog.record(
                        on: executor, at: now, actor: actor, entity: "device", id: id, action: "registered",
                        detail: "merchant \(merchantId), terminal id \(device.terminalId)")
                }
                return device
            } catch StorageError.uniqueViolation {
                if let existing = try await self.device(merchantId: merchantId, id: id) { return existing }
                if attempt == 5 { throw StorageError(.uniqueViolation, "no free terminal id found") }
            }
        }
        throw StorageError(.uniqueViolation, "no free terminal id found")
    }

    /// The PIN encryption key of the merchant's device, generating and storing one (encrypted under `keys`' data
    /// key, bound to the merchant and device) when it has none yet.
    func pinKey(
        merchantId: String, deviceId: String, keys: GatewayKeys, actor: String, now: Date = Date()
    ) async throws -> PINEncryptionKey {
        let binding = PINEncryptionKey.authenticatedData(merchantId: merchantId, deviceId: deviceId)
        return try await database.transaction { executor in
            let rows = try await executor.query(
                "SELECT pin_key, pin_key_id FROM merchant_devices WHERE merchant_id = $1 AND id = $2"
                    + executor.dialect.forUpdate, [.text(merchantId), .text(deviceId)])
            guard let row = rows.first else { throw StorageError(.corruptRow, "the device is not registered") }
            if let sealed = try row.optionalBlob("pin_key"), let keyId = try row.optionalText("pin_key_id") {
                return PINEncryptionKey(id: keyId, bytes: try keys.open(sealed, authenticating: binding))
            }
            let key = PINEncryptionKey.generate()
            try await executor.query(
                "UPDATE merchant_devices SET pin_key = $1, pin_key_id = $2 WHERE merchant_id = $3 AND id = $4",
                [
                    .blob(keys.seal(key.bytes, authenticating: binding)), .text(key.id), .text(merchantId),
                    .text(deviceId),
                ])
            try await AuditLog.record(
                on: executor, at: now, actor: actor, entity: "device", id: deviceId, action: "pinKeyStored",
                detail: "merchant \(merchantId), PIN key \(key.id)")
            return key
        }
    }

    /// The PIN encryption key bytes and id of the merchant's device, for deciphering a PIN block it sent; nil when
    /// it has none.
    /// - Throws: ``GatewayKeysError/Code/cannotOpen`` when the stored key does not open under `keys`.
    public func pinKeyBytes(
        merchantId: String, deviceId: String, keys: GatewayKeys
    ) async throws -> (keyId: String, key: [UInt8])? {
        let rows = try await database.query(
            "SELECT pin_key, pin_key_id FROM merchant_devices WHERE merchant_id = $1 AND id = $2",
            [.text(merchantId), .text(deviceId)])
        guard let row = rows.first, let sealed = try row.optionalBlob("pin_key"),
            let keyId = try row.optionalText("pin_key_id")
        else { return nil }
        let binding = PINEncryptionKey.authenticatedData(merchantId: merchantId, deviceId: deviceId)
        return (keyId, try keys.open(sealed, authenticating: binding))
    }

    /// Records that device `deviceId` uses `merchantId` at `now`, if `limit` allows it.
    /// - Throws: ``GatewayAPIError/Code/merchantBlocked`` with the time it clears; ``StorageError``.
    public func recordMerchantUse(
        deviceId: String, merchantId: String, limit: DeviceMerchantLimit = .standard, actor: String,
        now: Date = Date()
    ) async throws {
        try await database.transaction { executor in
            let rows = try await executor.query(
                "SELECT merchant_id, last_used_at FROM device_merchant_uses WHERE device_id = $1"
                    + executor.dialect.forUpdate, [.text(deviceId)])
            var lastUses: [String: Date] = [:]
            for row in rows {
                lastUses[try row.text("merchant_id")] = Date(millis: try row.integer("last_used_at"))
            }
            if case .blocked(let clearsAt) = limit.decide(merchantId: merchantId, lastUses: lastUses, now: now) {
                throw GatewayAPIError(
                    code: .merchantBlocked,
                    message: "the device used \(limit.maximumMerchants) other merchants in the last 24 hours",
                    clearsAt: clearsAt)
            }
            try await executor.query(
                """
                INSERT INTO device_merchant_uses (device_id, merchant_id, last_used_at) VALUES ($1, $2, $3)
                ON CONFLICT (device_id, merchant_id) DO UPDATE SET last_used_at = excluded.last_used_at
                """, [.text(deviceId), .text(merchantId), .integer(now.millis)])
            // Uses out of the window decide nothing any more.
            try await executor.query(
                "DELETE FROM device_merchant_uses WHERE device_id = $1 AND last_used_at <= $2",
                [.text(deviceId), .integer(now.addingTimeInterval(-limit.window).millis)])
            if lastUses[merchantId] == nil {
                try await AuditLog.record(
                    on: executor, at: now, actor: actor, entity: "device", id: deviceId, action: "merchantUsed",
                    detail: "merchant \(merchantId)")
            }
        }
    }

    private static func decode(_ row: SQLRow) throws -> Device {
        Device(
            merchantId: try row.text("merchant_id"), id: try row.text("id"), terminalId: try row.text("terminal_id"),
            provisionedAt: Date(millis: try row.integer("provisioned_at")),
            pinKeyId: try row.optionalText("pin_key_id"))
    }
}
