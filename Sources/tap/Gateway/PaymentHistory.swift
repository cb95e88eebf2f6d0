import Foundation
import Gateway
import _SQLStorage

/// A merchant's past: `count` payments of one device spread over the last 30 days (one in sixteen declined for
/// insufficient funds; cards of three BINs and 10,000 last fours), each with its audit row, and the idempotency keys a
/// day's retention keeps (those of the last 24 hours), written straight into the database, so `tap bench gateway
/// --past-payments` measures a gateway that has been in business for a while and `tap bench console` has a history
/// to list and filter.
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
        let last4 =
            switch dialect {
            case .sqlite: "printf('%04d', n % 10000)"
            case .postgres: "lpad((n % 10000)::text, 4, '0')"
            }
        let declined = "n % 16 = 7"
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
                SELECT 'pay_past_' || n, $3, $4, 'purchase',
                    CASE WHEN \(declined) THEN 'declined' ELSE 'succeeded' END, 'automatic', 100 + n % 900, 'EUR',
                    CASE WHEN \(declined) THEN 0 ELSE 100 + n % 900 END, 0,
                    CASE n % 3 WHEN 0 THEN '476173' WHEN 1 THEN '520473' ELSE '489537' END, \(last4), 'visa',
                    'contactlessChip', \(stan), '000000000000', 'T0000000',
                    CASE WHEN \(declined) THEN '51' ELSE '00' END, CASE WHEN \(declined) THEN NULL ELSE 'A00000' END,
                    $5 - n * $6, $5 - n * $6
                \(from) WHERE $7 >= 0 AND $8 IS NOT NULL
                """,
            numbers + """
                INSERT INTO audit_log (at, actor, entity, entity_id, action, detail)
                SELECT $5 - n * $6, 'issuer', 'payment', 'pay_past_' || n,
                    CASE WHEN \(declined) THEN 'declined' ELSE 'succeeded' END,
                    CASE WHEN \(declined) THEN 'response 51' ELSE 'response 00' END
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
