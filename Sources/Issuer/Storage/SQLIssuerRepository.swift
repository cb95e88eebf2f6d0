import EMV
import Foundation
public import ISO8583
public import _SQLStorage

/// The issuer host's accounts and authorizations in SQL (``IssuerSchema``), on SQLite or PostgreSQL.
///
/// Each method is one transaction. ``authorize(_:_:)`` and ``reverse(_:of:)`` first lock the account's row
/// (``SQLDialect/forUpdate``; SQLite's write transaction excludes every other writer), so two authorizations of one
/// card never interleave between reading its last ATC or balance and writing them, and a reversal restores a balance
/// once. The account is always locked before its authorizations, so the two never deadlock each other.
/// Authorization times are kept to the millisecond.
public struct SQLIssuerRepository: IssuerRepository {
    /// Where the tables are; migrate ``IssuerSchema`` first.
    public let database: any SQLDatabase
    /// Whether an authorization waits for its commit to be on disk before the host answers. The in-process issuer
    /// of a gateway on the same database need not: its answer goes only to that gateway, which stores the payment's
    /// outcome with a later commit that waits for the disk (and so brings this one there too) before anyone hears
    /// of it; a crash before that leaves the payment `processing`, which is reversed.
    public let awaitsDisk: Bool

    /// A repository over `database`.
    public init(database: any SQLDatabase, awaitsDisk: Bool = true) {
        self.database = database
        self.awaitsDisk = awaitsDisk
    }

    private static let accountColumns = """
        keyed_pan, encrypted_pan, masked_pan, status, expiry_year, expiry_month, currency, available_balance,
        per_transaction_limit, online_pin_limit, requires_strong_customer_authentication, pin_verification_value,
        wrong_pin_count, pin_try_limit, last_atc, simulates_no_response, pin_pending_atc
        """

    /// Stores a new card account.
    public func insert(_ account: CardAccount) async throws(IssuerError) {
        let values: [SQLValue] =
            [
                .blob(account.keyedPAN.bytes), .blob(account.encryptedPAN), .text(account.maskedPAN),
                .text(account.status.rawValue), .integer(account.expiry.year), .integer(account.expiry.month),
                .text(account.currency.alphabeticCode),
            ] + Self.mutableValues(account)
        do throws(StorageError) {
            try await database.query(
                """
                INSERT INTO issuer_accounts (keyed_pan, encrypted_pan, masked_pan, status, expiry_year, expiry_month,
                    currency, available_balance, per_transaction_limit, online_pin_limit,
                    requires_strong_customer_authentication, pin_verification_value, wrong_pin_count, pin_try_limit,
                    last_atc, simulates_no_response, pin_pending_atc)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
                """, values)
        } catch  where error.code == .uniqueViolation {
            throw IssuerError(.duplicateAccount, "an account has \(account.keyedPAN) already")
        } catch {
            throw Self.issuerError(error)
        }
    }

    /// The account with this keyed PAN hash, if any.
    public func account(_ keyedPAN: KeyedPANHash) async throws(IssuerError) -> CardAccount? {
        do {
            let rows = try await database.query(
                "SELECT \(Self.accountColumns) FROM issuer_accounts WHERE keyed_pan = $1", [.blob(keyedPAN.bytes)])
            return try rows.first.map(Self.account)
        } catch {
            throw Self.issuerError(error)
        }
    }

    /// Runs `decide` on the locked account and stores the account and the authorisation in one transaction.
    public func authorize(
        _ keyedPAN: KeyedPANHash, _ decide: @Sendable (inout CardAccount) -> AuthorizationDecision
    ) async throws(IssuerError) -> AuthorizationDecision? {
        do {
            return try await authorizationTransaction { executor -> AuthorizationDecision? in
                guard var account = try await Self.lockedAccount(keyedPAN, executor) else { return nil }
                let decision = decide(&account)
                try await executor.query(
                    """
                    UPDATE issuer_accounts SET status = $2, available_balance = $3, per_transaction_limit = $4,
                        online_pin_limit = $5, requires_strong_customer_authentication = $6,
                        pin_verification_value = $7, wrong_pin_count = $8, pin_try_limit = $9, last_atc = $10,
                        simulates_no_response = $11, pin_pending_atc = $12
                    WHERE keyed_pan = $1
                    """, [.blob(keyedPAN.bytes), .text(account.status.rawValue)] + Self.mutableValues(account))
                if let record = decision.record {
                    // A repeated reference replaces the earlier record, as the in-memory repository does.
                    try await executor.query(
                        """
                        INSERT INTO issuer_authorizations (stan, rrn, terminal_id, keyed_pan, amount, approval_code,
                            authorized_at, reversed, wallet_transaction_data)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                        ON CONFLICT (stan, rrn, terminal_id) DO UPDATE SET keyed_pan = excluded.keyed_pan,
                            amount = excluded.amount, approval_code = excluded.approval_code,
                            authorized_at = excluded.authorized_at, reversed = excluded.reversed,
                            wallet_transaction_data = excluded.wallet_transaction_data
                        """,
                        Self.referenceValues(record.reference) + [
                            .blob(record.keyedPAN.bytes), .integer(record.amount), .text(record.approvalCode),
                            .integer(record.date.millis), .bool(record.reversed), .blob(record.walletTransactionData),
                        ])
                }
                return decision
            }
        } catch {
            throw Self.issuerError(error)
        }
    }

    /// The approved authorization with `reference`, if any.
    public func authorization(_ reference: AuthorizationReference) async throws(IssuerError) -> AuthorizationRecord? {
        do {
            let rows = try await database.query(
                """
                SELECT \(Self.authorizationColumns) FROM issuer_authorizations
                WHERE stan = $1 AND rrn = $2 AND terminal_id = $3
                """, Self.referenceValues(reference))
            return try rows.first.map { row throws(StorageError) in try Self.authorization(row, reference: reference) }
        } catch {
            throw Self.issuerError(error)
        }
    }

    private static let authorizationColumns =
        "keyed_pan, amount, approval_code, authorized_at, reversed, wallet_transaction_data"

    /// An authorization record from a row of ``authorizationColumns``.
    private static func authorization(_ row: SQLRow, reference: AuthorizationReference) throws(StorageError)
        -> AuthorizationRecord
    {
        AuthorizationRecord(
            reference: reference, keyedPAN: KeyedPANHash(bytes: try row.blob("keyed_pan")),
            amount: try row.integer("amount"), approvalCode: try row.text("approval_code"),
            date: Date(millis: try row.integer("authorized_at")), reversed: try row.bool("reversed"),
            walletTransactionData: try row.optionalBlob("wallet_transaction_data"))
    }

    /// A transaction for an authorization: waiting for the disk or not (``awaitsDisk``).
    private func authorizationTransaction<Result: Sendable>(
        _ body: @Sendable (any SQLExecutor) async throws -> Result
    ) async throws -> Result {
        if awaitsDisk { return try await database.transaction(body) }
        return try await database.transactionDurableLater(body)
    }

    /// Reverses an approved authorisation of the account, restoring its amount exactly once.
    public func reverse(_ reference: AuthorizationReference, of keyedPAN: KeyedPANHash) async throws(IssuerError)
        -> ReversalResult
    {
        do {
            return try await database.transaction { executor -> ReversalResult in
                guard try await Self.lockedAccount(keyedPAN, executor) != nil else { return .notFound }
                let rows = try await executor.query(
                    """
                    SELECT \(Self.authorizationColumns) FROM issuer_authorizations
                    WHERE stan = $1 AND rrn = $2 AND terminal_id = $3\(executor.dialect.forUpdate)
                    """, Self.referenceValues(reference))
                guard let row = rows.first, try row.blob("keyed_pan") == keyedPAN.bytes else { return .notFound }
                var record = try Self.authorization(row, reference: reference)
                guard !record.reversed else { return .alreadyReversed(record) }
                record.reversed = true
                try await executor.query(
                    "UPDATE issuer_authorizations SET reversed = 1 WHERE stan = $1 AND rrn = $2 AND terminal_id = $3",
                    Self.referenceValues(reference))
                try await executor.query(
                    "UPDATE issuer_accounts SET available_balance = available_balance + $2 WHERE keyed_pan = $1",
                    [.blob(keyedPAN.bytes), .integer(record.amount)])
                return .reversed(record)
            }
        } catch {
            throw Self.issuerError(error)
        }
    }

    /// The account, its row locked until the transaction ends; nil when there is none.
    private static func lockedAccount(_ keyedPAN: KeyedPANHash, _ executor: any SQLExecutor) async throws
        -> CardAccount?
    {
        let rows = try await executor.query(
            "SELECT \(accountColumns) FROM issuer_accounts WHERE keyed_pan = $1\(executor.dialect.forUpdate)",
            [.blob(keyedPAN.bytes)])
        return try rows.first.map(account)
    }

    /// The columns an authorization may change, from `available_balance` on, in table order.
    private static func mutableValues(_ account: CardAccount) -> [SQLValue] {
        [
            .integer(account.availableBalance), .integer(account.perTransactionLimit),
            .integer(account.onlinePINLimit), .bool(account.requiresStrongCustomerAuthentication),
            .blob(account.pinVerificationValue), .integer(account.wrongPINCount), .integer(account.pinTryLimit),
            .integer(account.lastATC.map(Int.init)), .bool(account.simulatesNoResponse),
            .integer(account.pinPendingATC.map(Int.init)),
        ]
    }

    private static func referenceValues(_ reference: AuthorizationReference) -> [SQLValue] {
        [
            .text(reference.systemTraceAuditNumber), .text(reference.retrievalReferenceNumber),
            .text(reference.terminalID),
        ]
    }

    private static func account(_ row: SQLRow) throws -> CardAccount {
        guard let status = CardAccount.Status(rawValue: try row.text("status")),
            let currency = Currency(alphabeticCode: try row.text("currency")),
            let expiry = try? ExpiryDate(year: try row.integer("expiry_year"), month: try row.integer("expiry_month"))
        else { throw StorageError(.corruptRow, "an issuer account's status, currency or expiry is not valid") }
        let lastATC = try row.optionalInteger("last_atc")
        guard lastATC.map({ UInt16(exactly: $0) != nil }) ?? true else {
            throw StorageError(.corruptRow, "an issuer account's last ATC is out of range")
        }
        return CardAccount(
            keyedPAN: KeyedPANHash(bytes: try row.blob("keyed_pan")), encryptedPAN: try row.blob("encrypted_pan"),
            maskedPAN: try row.text("masked_pan"), status: status, expiry: expiry, currency: currency,
            availableBalance: try row.integer("available_balance"),
            perTransactionLimit: try row.optionalInteger("per_transaction_limit"),
            onlinePINLimit: try row.optionalInteger("online_pin_limit"),
            requiresStrongCustomerAuthentication: try row.bool("requires_strong_customer_authentication"),
            pinVerificationValue: try row.optionalBlob("pin_verification_value"),
            wrongPINCount: try row.integer("wrong_pin_count"), pinTryLimit: try row.integer("pin_try_limit"),
            lastATC: lastATC.flatMap { UInt16(exactly: $0) },
            pinPendingATC: try row.optionalInteger("pin_pending_atc").flatMap { UInt16(exactly: $0) },
            simulatesNoResponse: try row.bool("simulates_no_response"))
    }

    /// The repository's error: storage failures keep their message (free of values), anything else its type.
    static func issuerError(_ error: any Error) -> IssuerError {
        switch error {
        case let error as IssuerError: error
        case let error as StorageError: IssuerError(.storageFailed, "issuer storage: \(error.code): \(error.message)")
        default: IssuerError(.storageFailed, "issuer storage failed (\(type(of: error)))")
        }
    }
}
