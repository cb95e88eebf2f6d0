import EMV
import Foundation
public import _SQLStorage

/// The digitization service's rows (``IssuerSchema`` version 5): eligibility answers in `issuer_eligibilities`,
/// digitizations in `issuer_digitizations`, digitized tokens in `issuer_digitized_tokens`. The funding PAN is kept
/// as the eligibility's keyed hash and ciphertext, the one-time code only as its HMAC. Each update locks its row.
extension SQLIssuerRepository: DigitizationStore {
    private static let eligibilityColumns = """
        id, funding_keyed_pan, encrypted_funding_pan, funding_last_four, wallet_id, device_id, scheme, terms_id,
        valid_until
        """
    private static let digitizationColumns =
        "id, eligibility_id, code_hash, code_valid_until, tries_left, state, token_id"
    private static let digitizedTokenColumns = "token_id, keyed_dpan, wallet_id, device_id, highest_issued_atc"

    /// Stores an eligibility answer.
    public func insertEligibility(_ record: EligibilityRecord) async throws(IssuerError) {
        try await insert(
            "issuer_eligibilities", Self.eligibilityColumns,
            [
                .text(record.id), .blob(record.fundingKeyedPAN.bytes), .blob(record.encryptedFundingPAN),
                .text(record.fundingLastFour), .text(record.walletID), .text(record.deviceID),
                .text(record.scheme.rawValue), .text(record.termsID), .integer(record.validUntil.millis),
            ])
    }

    /// The eligibility answer with this id, if any.
    public func eligibility(_ id: String) async throws(IssuerError) -> EligibilityRecord? {
        do {
            let rows = try await database.query(
                "SELECT \(Self.eligibilityColumns) FROM issuer_eligibilities WHERE id = $1", [.text(id)])
            return try rows.first.map(Self.eligibility)
        } catch {
            throw Self.issuerError(error)
        }
    }

    /// Stores a pending digitization.
    public func insertDigitization(_ record: DigitizationRecord) async throws(IssuerError) {
        try await insert("issuer_digitizations", Self.digitizationColumns, Self.values(record))
    }

    /// Runs `change` on the locked digitization and stores its tries, state and token.
    public func updateDigitization<Result: Sendable>(
        _ id: String, _ change: @Sendable (inout DigitizationRecord) -> Result
    ) async throws(IssuerError) -> Result? {
        try await updateLocked(
            "issuer_digitizations", key: "id", id, columns: Self.digitizationColumns, read: Self.digitization,
            set: "tries_left = $2, state = $3, token_id = $4",
            values: { [.integer($0.triesLeft), .text($0.state.rawValue), .text($0.tokenID)] }, change)
    }

    /// Stores a digitized token.
    public func insertDigitizedToken(_ record: DigitizedTokenRecord) async throws(IssuerError) {
        try await insert(
            "issuer_digitized_tokens", Self.digitizedTokenColumns,
            [
                .text(record.tokenID), .blob(record.keyedDPAN.bytes), .text(record.walletID), .text(record.deviceID),
                .integer(Int(record.highestIssuedATC)),
            ])
    }

    /// The digitized token with this id, if any.
    public func digitizedToken(_ tokenID: String) async throws(IssuerError) -> DigitizedTokenRecord? {
        do {
            let rows = try await database.query(
                "SELECT \(Self.digitizedTokenColumns) FROM issuer_digitized_tokens WHERE token_id = $1",
                [.text(tokenID)])
            return try rows.first.map(Self.digitizedToken)
        } catch {
            throw Self.issuerError(error)
        }
    }

    /// Runs `change` on the locked token record and stores its highest issued ATC.
    public func updateDigitizedToken<Result: Sendable>(
        _ tokenID: String, _ change: @Sendable (inout DigitizedTokenRecord) -> Result
    ) async throws(IssuerError) -> Result? {
        try await updateLocked(
            "issuer_digitized_tokens", key: "token_id", tokenID, columns: Self.digitizedTokenColumns,
            read: Self.digitizedToken, set: "highest_issued_atc = $2",
            values: { [.integer(Int($0.highestIssuedATC))] }, change)
    }

    /// Reads the row of `table` whose `key` is `id` locked, runs `change` on it and writes back the `set` columns
    /// (`$2`… from `values`), in one transaction; nil when there is no such row.
    private func updateLocked<Record, Result: Sendable>(
        _ table: String, key: String, _ id: String, columns: String,
        read: @escaping @Sendable (SQLRow) throws -> Record,
        set: String, values: @escaping @Sendable (Record) -> [SQLValue], _ change: @Sendable (inout Record) -> Result
    ) async throws(IssuerError) -> Result? {
        do {
            return try await database.transaction { executor -> Result? in
                let rows = try await executor.query(
                    "SELECT \(columns) FROM \(table) WHERE \(key) = $1\(executor.dialect.forUpdate)", [.text(id)])
                guard let row = rows.first else { return nil }
                var record = try read(row)
                let result = change(&record)
                try await executor.query("UPDATE \(table) SET \(set) WHERE \(key) = $1", [.text(id)] + values(record))
                return result
            }
        } catch {
            throw Self.issuerError(error)
        }
    }

    // MARK: - Rows

    /// Inserts one row; a taken id is ``IssuerError/Code/storageFailed``, as in the in-memory store.
    private func insert(_ table: String, _ columns: String, _ values: [SQLValue]) async throws(IssuerError) {
        let placeholders = (1...values.count).map { "$\($0)" }.joined(separator: ", ")
        do {
            try await database.query("INSERT INTO \(table) (\(columns)) VALUES (\(placeholders))", values)
        } catch {
            throw Self.issuerError(error)
        }
    }

    private static func values(_ record: DigitizationRecord) -> [SQLValue] {
        [
            .text(record.id), .text(record.eligibilityID), .blob(record.codeHash),
            .integer(record.codeValidUntil.millis), .integer(record.triesLeft), .text(record.state.rawValue),
            .text(record.tokenID),
        ]
    }

    private static func eligibility(_ row: SQLRow) throws -> EligibilityRecord {
        guard let scheme = PaymentScheme(rawValue: try row.text("scheme")) else {
            throw StorageError(.corruptRow, "an eligibility's scheme is not valid")
        }
        return EligibilityRecord(
            id: try row.text("id"), fundingKeyedPAN: KeyedPANHash(bytes: try row.blob("funding_keyed_pan")),
            encryptedFundingPAN: try row.blob("encrypted_funding_pan"),
            fundingLastFour: try row.text("funding_last_four"),
            walletID: try row.text("wallet_id"), deviceID: try row.text("device_id"), scheme: scheme,
            termsID: try row.text("terms_id"), validUntil: Date(millis: try row.integer("valid_until")))
    }

    private static func digitization(_ row: SQLRow) throws -> DigitizationRecord {
        guard let state = DigitizationRecord.State(rawValue: try row.text("state")) else {
            throw StorageError(.corruptRow, "a digitization's state is not valid")
        }
        return DigitizationRecord(
            id: try row.text("id"), eligibilityID: try row.text("eligibility_id"), codeHash: try row.blob("code_hash"),
            codeValidUntil: Date(millis: try row.integer("code_valid_until")), triesLeft: try row.integer("tries_left"),
            state: state, tokenID: try row.optionalText("token_id"))
    }

    private static func digitizedToken(_ row: SQLRow) throws -> DigitizedTokenRecord {
        guard let atc = UInt16(exactly: try row.integer("highest_issued_atc")) else {
            throw StorageError(.corruptRow, "a digitized token's highest ATC is out of range")
        }
        return DigitizedTokenRecord(
            tokenID: try row.text("token_id"), keyedDPAN: KeyedPANHash(bytes: try row.blob("keyed_dpan")),
            walletID: try row.text("wallet_id"), deviceID: try row.text("device_id"), highestIssuedATC: atc)
    }
}
