import EMV
import Foundation
import GatewayAPI
import ISO8583
import _SQLStorage

/// Payments and refunds in SQL, written once for both databases; each function runs on the executor it is given,
/// so callers compose them into one transaction.
package struct PaymentRepository: Sendable {
    private static let columns = """
        id, merchant_id, device_id, read_id, kind, status, capture_method, amount, currency, captured_amount,
        refunded_amount, card_bin, card_last4, card_scheme, entry_mode, stan, rrn, terminal_id, response_code,
        approval_code, failure_code, issuer_authentication_data, pending_card_data, pin_token_hash, pin_deadline,
        wrong_pin_count, reversal_message, reversal_attempts, next_reversal_at, created_at, updated_at,
        verification_reason
        """

    /// The two statements every authorization runs, built once rather than per call.
    private static let insertStatement =
        "INSERT INTO payments (\(columns)) VALUES (\((1...32).map { "$\($0)" }.joined(separator: ", ")))"
    private static let updateStatement: String = {
        let assignments = updatedColumns.enumerated().map { "\(columnNames[$1]) = $\($0 + 2)" }
        return "UPDATE payments SET \(assignments.joined(separator: ", ")) WHERE id = $1"
    }()

    private static let columnNames = columns.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where in ``columns`` the columns an update writes are: all but those fixed when the payment is made. SQLite
    /// rewrites the entries of every index on a column an UPDATE sets, changed or not: leaving these out leaves the
    /// indexes on id, read id, merchant and creation time alone.
    private static let updatedColumns: [Int] = {
        let fixed: Set = [
            "id", "merchant_id", "device_id", "read_id", "kind", "capture_method", "amount", "currency", "card_bin",
            "card_last4", "card_scheme", "entry_mode", "created_at", "verification_reason",
        ]
        return columnNames.indices.filter { !fixed.contains(columnNames[$0]) }
    }()

    /// Inserts a new payment.
    func insert(_ record: PaymentRecord, on executor: any SQLExecutor) async throws(StorageError) {
        try await executor.query(Self.insertStatement, Self.binds(record))
    }

    /// Writes every mutable column of `record`.
    func update(_ record: PaymentRecord, on executor: any SQLExecutor) async throws(StorageError) {
        let binds = Self.binds(record)
        try await executor.query(Self.updateStatement, [binds[0]] + Self.updatedColumns.map { binds[$0] })
    }

    /// The merchant's payment with `id`, locked for update when `locking`.
    func payment(
        _ id: String, merchantId: String, locking: Bool = false, on executor: any SQLExecutor
    ) async throws(StorageError) -> PaymentRecord? {
        let rows = try await executor.query(
            "SELECT \(Self.columns) FROM payments WHERE id = $1 AND merchant_id = $2"
                + (locking ? executor.dialect.forUpdate : ""),
            [.text(id), .text(merchantId)])
        return try rows.first.map(Self.record)
    }

    /// The merchant's payments matching `filter`, newest first, after `startingAfter` (an id).
    func payments(
        merchantId: String, filter: PaymentFilter, startingAfter: String?, limit: Int, on executor: any SQLExecutor
    ) async throws(StorageError) -> [PaymentRecord] {
        var sql = "SELECT \(Self.columns) FROM payments WHERE merchant_id = $1"
        var binds: [SQLValue] = [.text(merchantId)]
        func and(_ condition: String, _ value: SQLValue) {
            binds.append(value)
            sql += " AND " + condition.replacingOccurrences(of: "?", with: "$\(binds.count)")
        }
        if let deviceId = filter.deviceId { and("device_id = ?", .text(deviceId)) }
        if let status = filter.status { and("status = ?", .text(status.rawValue)) }
        if let last4 = filter.last4 { and("card_last4 = ?", .text(last4)) }
        if let bin = filter.bin { and("card_bin = ?", .text(bin)) }
        if let from = filter.createdFrom { and("created_at >= ?", .integer(from.millis)) }
        if let before = filter.createdBefore { and("created_at < ?", .integer(before.millis)) }
        if let minimum = filter.minimumAmount { and("amount >= ?", .integer(minimum)) }
        if let maximum = filter.maximumAmount { and("amount <= ?", .integer(maximum)) }
        if let startingAfter {
            binds.append(.text(startingAfter))
            let id = "$\(binds.count)"
            let cursor = "(SELECT created_at FROM payments WHERE id = \(id))"
            // The first condition alone bounds the index range; the second drops the cursor's own instant's newer ids.
            sql += " AND created_at <= \(cursor) AND (created_at < \(cursor) OR id < \(id))"
        }
        binds.append(.integer(limit))
        sql += " ORDER BY created_at DESC, id DESC LIMIT $\(binds.count)"
        return try await executor.query(sql, binds).map(Self.record)
    }

    /// Payments whose reversal is due at `now`, oldest first, locked for update.
    func reversalsDue(at now: Date, limit: Int, on executor: any SQLExecutor) async throws(StorageError)
        -> [PaymentRecord]
    {
        try await executor.query(
            Self.reversalsDueQuery + executor.dialect.forUpdate, [.integer(now.millis), .integer(limit)]
        ).map(Self.record)
    }

    /// Through the partial index `payments_reversal_due`, whose condition the query repeats so that SQLite uses it.
    package static let reversalsDueQuery = """
        SELECT \(columns) FROM payments WHERE next_reversal_at IS NOT NULL AND next_reversal_at <= $1
        ORDER BY next_reversal_at LIMIT $2
        """

    /// Payments left in ``PaymentStatus/processing`` since before `cutoff` (their node crashed mid-flight), and
    /// ``PaymentStatus/requiresPIN`` payments whose PIN window closed before `now`, locked for update.
    func abandoned(before cutoff: Date, now: Date, limit: Int, on executor: any SQLExecutor) async throws(StorageError)
        -> [PaymentRecord]
    {
        try await executor.query(
            Self.abandonedQuery + executor.dialect.forUpdate,
            [.integer(cutoff.millis), .integer(now.millis), .integer(limit)]
        ).map(Self.record)
    }

    /// Through the partial index `payments_unfinished`, whose condition the query repeats word for word so that
    /// SQLite uses it (it does not infer it from the OR below): the sweep reads the payments in flight, not the
    /// table.
    package static let abandonedQuery = """
        SELECT \(columns) FROM payments WHERE status IN ('processing', 'requiresPIN')
            AND ((status = 'processing' AND updated_at < $1) OR (status = 'requiresPIN' AND pin_deadline < $2))
        ORDER BY updated_at LIMIT $3
        """

    /// Inserts a refund.
    func insert(_ refund: Refund, merchantId: String, on executor: any SQLExecutor) async throws(StorageError) {
        try await executor.query(
            """
            INSERT INTO refunds (id, payment_id, merchant_id, amount, currency, status, reason, card_bin, card_last4,
                created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            """,
            [
                .text(refund.id), .text(refund.paymentId), .text(merchantId), .integer(refund.amount),
                .text(refund.currency), .text(refund.status), .text(refund.reason), .text(refund.card?.bin),
                .text(refund.card?.last4), .integer(refund.createdAt.millis),
            ])
    }

    /// The refunds of a payment, oldest first.
    func refunds(ofPayment paymentId: String, merchantId: String, on executor: any SQLExecutor)
        async throws(StorageError) -> [Refund]
    {
        try await executor.query(
            """
            SELECT id, payment_id, amount, currency, status, reason, card_bin, card_last4, created_at FROM refunds
            WHERE payment_id = $1 AND merchant_id = $2 ORDER BY created_at, id
            """, [.text(paymentId), .text(merchantId)]
        ).map { (row) throws(StorageError) in
            return Refund(
                id: try row.text("id"), paymentId: try row.optionalText("payment_id"),
                amount: try row.integer("amount"),
                currency: try row.text("currency"), status: try row.text("status"),
                reason: try row.optionalText("reason"),
                card: PaymentCard(
                    bin: try row.optionalText("card_bin"), last4: try row.optionalText("card_last4"), entryMode: nil),
                createdAt: Date(millis: try row.integer("created_at")))
        }
    }

    private static func binds(_ record: PaymentRecord) -> [SQLValue] {
        let payment = record.payment
        return [
            .text(payment.id), .text(payment.merchantId), .text(payment.deviceId), .text(payment.readId?.uppercaseText),
            .text(payment.kind.rawValue), .text(payment.status.rawValue), .text(payment.captureMethod.rawValue),
            .integer(payment.amount), .text(payment.currency), .integer(payment.capturedAmount),
            .integer(payment.refundedAmount), .text(payment.card?.bin), .text(payment.card?.last4),
            .text(payment.card?.scheme), .text(payment.card?.entryMode), .text(record.stan), .text(record.rrn),
            .text(record.terminalID), .text(payment.issuer?.responseCode), .text(payment.issuer?.approvalCode),
            .text(payment.failureCode), .blob(payment.issuer?.authenticationData.flatMap { [UInt8](hex: $0) }),
            .blob(record.pendingCardData), .blob(record.pinTokenHash), .integer(record.pinDeadline?.millis),
            .integer(record.wrongPINCount), .blob(record.reversalMessage), .integer(record.reversalAttempts),
            .integer(record.nextReversalAt?.millis), .integer(payment.createdAt.millis),
            .integer(payment.updatedAt.millis), .text(payment.verificationReason?.rawValue),
        ]
    }

    private static func record(_ row: SQLRow) throws(StorageError) -> PaymentRecord {
        func decode<T: RawRepresentable>(_ column: String) throws(StorageError) -> T where T.RawValue == String {
            guard let value = T(rawValue: try row.text(column)) else {
                throw StorageError(.corruptRow, "column \(column) holds an unknown value")
            }
            return value
        }
        let responseCode = try row.optionalText("response_code")
        let deadline = try row.optionalInteger("pin_deadline").map(Date.init(millis:))
        let status: PaymentStatus = try decode("status")
        let payment = Payment(
            id: try row.text("id"), merchantId: try row.text("merchant_id"),
            deviceId: try row.optionalText("device_id"),
            readId: try row.optionalText("read_id").flatMap(UUID.init(text:)), kind: try decode("kind"),
            status: status, captureMethod: try decode("capture_method"), amount: try row.integer("amount"),
            currency: try row.text("currency"), capturedAmount: try row.integer("captured_amount"),
            refundedAmount: try row.integer("refunded_amount"),
            card: PaymentCard(
                bin: try row.optionalText("card_bin"), last4: try row.optionalText("card_last4"),
                entryMode: try row.optionalText("entry_mode")),
            issuer: try responseCode.map { (code) throws(StorageError) in
                IssuerOutcome(
                    responseCode: code, approvalCode: try row.optionalText("approval_code"),
                    authenticationData: try row.optionalBlob("issuer_authentication_data")?.hexString)
            },
            failureCode: try row.optionalText("failure_code"),
            pinRequest: nil, createdAt: Date(millis: try row.integer("created_at")),
            updatedAt: Date(millis: try row.integer("updated_at")))
        var record = PaymentRecord(payment: payment)
        record.payment.verificationReason = try row.optionalText("verification_reason").flatMap(
            VerificationReason.init(rawValue:))
        record.stan = try row.optionalText("stan")
        record.rrn = try row.optionalText("rrn")
        record.terminalID = try row.optionalText("terminal_id")
        record.reversalMessage = try row.optionalBlob("reversal_message")
        record.reversalAttempts = try row.integer("reversal_attempts")
        record.nextReversalAt = try row.optionalInteger("next_reversal_at").map(Date.init(millis:))
        record.pendingCardData = try row.optionalBlob("pending_card_data")
        record.pinTokenHash = try row.optionalBlob("pin_token_hash")
        record.pinDeadline = deadline
        record.wrongPINCount = try row.integer("wrong_pin_count")
        return record
    }
}

extension PaymentRepository {
    /// ``nextReference(deviceId:merchantId:date:on:)``'s statements, written once (it runs on every authorization).
    private static let incrementSTAN = """
        UPDATE merchant_devices SET next_stan = CASE WHEN next_stan >= 999999 THEN 1 ELSE next_stan + 1 END
        WHERE merchant_id = $2 AND id = $1
        """
    private static let writtenSTAN =
        "terminal_id, next_stan, (SELECT card_acceptor_id FROM merchants WHERE id = $2) AS acceptor"
    private static let readSTAN = "SELECT \(writtenSTAN) FROM merchant_devices WHERE merchant_id = $2 AND id = $1"
    private static let incrementReturningSTAN = incrementSTAN + " RETURNING " + writtenSTAN

    /// The next ISO 8583 reference of a device: its terminal id (field 41), the next STAN (field 11, per terminal,
    /// wrapping after 999999), an RRN (field 37, `YDDDhh` + STAN) and the merchant's card acceptor id (field 42).
    /// - Throws: ``GatewayAPIError/Code/forbidden`` when the device was never prepared.
    func nextReference(
        deviceId: String, merchantId: String, date: Date, on executor: any SQLExecutor
    ) async throws -> PaymentService.MessageReference {
        // Every authorization runs this, holding the database's lock. PostgreSQL: one statement; SQLite: the update,
        // then a read of what it wrote (its RETURNING builds and drops a temporary table per statement).
        let rows: [SQLRow]
        switch executor.dialect {
        case .sqlite:
            try await executor.query(Self.incrementSTAN, [.text(deviceId), .text(merchantId)])
            rows = try await executor.query(Self.readSTAN, [.text(deviceId), .text(merchantId)])
        case .postgres:
            rows = try await executor.query(Self.incrementReturningSTAN, [.text(deviceId), .text(merchantId)])
        }
        guard let device = rows.first, let cardAcceptorID = try device.optionalText("acceptor") else {
            throw GatewayAPIError(code: .forbidden, message: "the device was not prepared for this merchant")
        }
        // The row holds the incremented value; the STAN used is the one before it.
        let next = try device.integer("next_stan")
        let stan = next == 1 ? 999_999 : next - 1
        // This runs inside the payment's transaction (under SQLite's lock): no `String(format:)`, no calendar.
        let time = CivilTime(date)
        let rrn = AuthorizationRequest.retrievalReferenceNumber(at: time, systemTraceAuditNumber: stan)
        return PaymentService.MessageReference(
            stan: stan, rrn: rrn,
            terminalID: try device.text("terminal_id"), cardAcceptorID: cardAcceptorID)
    }
}
