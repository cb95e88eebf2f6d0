import Foundation
import Gateway
import _SQLStorage

/// A merchant's past: `count` succeeded payments of one device spread over the last 30 days, each with its audit row,
/// and the idempotency keys a day's retention keeps (those of the last 24 hours), written straight into the
/// database, so `tap bench gateway --past-payments` measures a gateway that has been in business for a while.
struct PaymentHistory {
    let count: Int
    let merchantId: String
    let deviceId: String
    /// The history ends here (its newest payment is just before).
    let now: Date

    /// Rows per transaction: SQLite holds its one connection for each.
    static let chunk = 50_000
    static let span: TimeInterval = 30 * 24 * 3600

    /// Writes the history; `progress` hears how far it got.
    func write(to database: any SQLDatabase, progress: (Int) -> Void) async throws {
        let spacing = max(1, Int(Self.span * 1000) / max(count, 1))
        let keptKeys = Int(24 * 3600 * 1000 / spacing)
        var first = 1
        while first <= count {
            let last = min(count, first + Self.chunk - 1)
            let binds: [SQLValue] = [
                .integer(first), .integer(last), .text(merchantId), .text(deviceId), .integer(now.millis),
                .integer(spacing), .integer(keptKeys), .blob([0]),
            ]
            try await database.transaction { executor in
                for statement in Self.statements(executor.dialect) { try await executor.query(statement, binds) }
            }
            progress(last)
            first = last + 1
        }
    }

    /// The statements over the numbers $1 to $2: $3 merchant, $4 device, $5 now and $6 spacing in milliseconds, $7
    /// how many of the newest keep their key, $8 a request hash.
    static func statements(_ dialect: SQLDialect) -> [String] {
        let (numbers, stan): (String, String) =
            switch dialect {
            case .sqlite:
                (
                    "WITH RECURSIVE seq(n) AS (SELECT $1 UNION ALL SELECT n + 1 FROM seq WHERE n < $2) ",
                    "printf('%06d', n % 999999)"
                )
            case .postgres: ("", "lpad((n % 999999)::text, 6, '0')")
            }
        let from =
            switch dialect {
            case .sqlite: "FROM seq"
            case .postgres: "FROM generate_series($1::bigint, $2::bigint) AS n"
            }
        // Every statement names every bind, as PostgreSQL needs each typed.
        let unused = "AND $3 IS NOT NULL AND $4 IS NOT NULL AND $7 >= 0 AND $8 IS NOT NULL"
        return [
            numbers + """
                INSERT INTO payments (id, merchant_id, device_id, kind, status, capture_method, amount, currency,
                    captured_amount, refunded_amount, card_bin, card_last4, card_scheme, entry_mode, stan, rrn,
                    terminal_id, response_code, approval_code, created_at, updated_at)
                SELECT 'pay_past_' || n, $3, $4, 'purchase', 'succeeded', 'automatic', 100 + n % 900, 'EUR',
                    100 + n % 900, 0, '476173', '0119', 'visa', 'contactlessChip', \(stan), '000000000000',
                    'T0000000', '00', 'A00000', $5 - n * $6, $5 - n * $6
                \(from) WHERE $7 >= 0 AND $8 IS NOT NULL
                """,
            numbers + """
                INSERT INTO audit_log (at, actor, entity, entity_id, action, detail)
                SELECT $5 - n * $6, 'issuer', 'payment', 'pay_past_' || n, 'succeeded', 'response 00'
                \(from) WHERE n > 0 \(unused)
                """,
            numbers + """
                INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response_status,
                    response_body, created_at, locked_until, payment_id)
                SELECT $3, 'past-' || n, $8, 201, $8, $5 - n * $6, 0, 'pay_past_' || n
                \(from) WHERE n <= $7 AND $4 IS NOT NULL
                """,
        ]
    }
}
