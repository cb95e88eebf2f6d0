import EMV
import Foundation
public import _SQLStorage

/// The token vault's rows in `issuer_device_tokens` (``IssuerSchema`` version 3): the DPAN by keyed hash and AES-GCM
/// ciphertext, the funding account by its keyed PAN hash. ``updateToken(_:_:)`` locks the row.
extension SQLIssuerRepository: TokenVaultRepository {
    private static let tokenColumns = """
        keyed_dpan, encrypted_dpan, masked_dpan, funding_keyed_pan, expiry_year, expiry_month, requestor,
        provisioned_at, status, last_atc
        """

    /// Stores a new token.
    public func insertToken(_ token: DeviceToken) async throws(IssuerError) {
        do throws(StorageError) {
            try await database.query(
                """
                INSERT INTO issuer_device_tokens (\(Self.tokenColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                """,
                [
                    .blob(token.keyedDPAN.bytes), .blob(token.encryptedDPAN), .text(token.maskedDPAN),
                    .blob(token.fundingKeyedPAN.bytes), .integer(token.expiry.year), .integer(token.expiry.month),
                    .text(token.requestor), .integer(token.provisionedAt.millis), .text(token.status.rawValue),
                    .integer(token.lastATC.map(Int.init)),
                ])
        } catch  where error.code == .uniqueViolation {
            throw IssuerError(.duplicateAccount, "a token has \(token.keyedDPAN) already")
        } catch {
            throw IssuerError(.storageFailed, "issuer storage: \(error.code): \(error.message)")
        }
    }

    /// The token with this keyed DPAN hash, if any.
    public func token(_ keyedDPAN: KeyedPANHash) async throws(IssuerError) -> DeviceToken? {
        try await tokens(where: "keyed_dpan = $1", keyedDPAN).first
    }

    /// The tokens of a funding account, oldest first.
    public func tokens(funding keyedPAN: KeyedPANHash) async throws(IssuerError) -> [DeviceToken] {
        try await tokens(where: "funding_keyed_pan = $1 ORDER BY provisioned_at", keyedPAN)
    }

    /// Runs `change` on the locked token and stores its status and last ATC in one transaction.
    public func updateToken<Result: Sendable>(
        _ keyedDPAN: KeyedPANHash, _ change: @Sendable (inout DeviceToken) -> Result
    ) async throws(IssuerError) -> Result? {
        do {
            return try await database.transaction { executor -> Result? in
                let rows = try await executor.query(
                    """
                    SELECT \(Self.tokenColumns) FROM issuer_device_tokens
                    WHERE keyed_dpan = $1\(executor.dialect.forUpdate)
                    """, [.blob(keyedDPAN.bytes)])
                guard var token = try rows.first.map(Self.token) else { return nil }
                let result = change(&token)
                try await executor.query(
                    "UPDATE issuer_device_tokens SET status = $2, last_atc = $3 WHERE keyed_dpan = $1",
                    [.blob(keyedDPAN.bytes), .text(token.status.rawValue), .integer(token.lastATC.map(Int.init))])
                return result
            }
        } catch let error as StorageError {
            throw IssuerError(.storageFailed, "issuer storage: \(error.code): \(error.message)")
        } catch {
            throw IssuerError(.storageFailed, "issuer storage failed (\(type(of: error)))")
        }
    }

    private func tokens(where condition: String, _ hash: KeyedPANHash) async throws(IssuerError) -> [DeviceToken] {
        do {
            let rows = try await database.query(
                "SELECT \(Self.tokenColumns) FROM issuer_device_tokens WHERE \(condition)", [.blob(hash.bytes)])
            return try rows.map(Self.token)
        } catch let error as StorageError {
            throw IssuerError(.storageFailed, "issuer storage: \(error.code): \(error.message)")
        } catch {
            throw IssuerError(.storageFailed, "issuer storage failed (\(type(of: error)))")
        }
    }

    private static func token(_ row: SQLRow) throws -> DeviceToken {
        guard let status = DeviceToken.Status(rawValue: try row.text("status")),
            let expiry = try? ExpiryDate(year: try row.integer("expiry_year"), month: try row.integer("expiry_month"))
        else { throw StorageError(.corruptRow, "a device token's status or expiry is not valid") }
        let lastATC = try row.optionalInteger("last_atc")
        guard lastATC.map({ UInt16(exactly: $0) != nil }) ?? true else {
            throw StorageError(.corruptRow, "a device token's last ATC is out of range")
        }
        return DeviceToken(
            keyedDPAN: KeyedPANHash(bytes: try row.blob("keyed_dpan")), encryptedDPAN: try row.blob("encrypted_dpan"),
            maskedDPAN: try row.text("masked_dpan"),
            fundingKeyedPAN: KeyedPANHash(bytes: try row.blob("funding_keyed_pan")),
            expiry: expiry, requestor: try row.text("requestor"),
            provisionedAt: Date(millis: try row.integer("provisioned_at")), status: status,
            lastATC: lastATC.flatMap { UInt16(exactly: $0) })
    }
}
