import Foundation
import Hummingbird
import _SQLStorage

extension ConsoleController {
    static let auditPageSize = 50

    /// The merchant's audit rows, newest first, before row `before`: those of the merchant itself and of its users,
    /// payments, refunds, API keys and webhook endpoints.
    func auditLog(_ session: ConsoleSession, before: Int?) async throws -> Response {
        let merchant = session.user.merchantId
        let rows = try await database.query(
            """
            SELECT a.id, a.at, a.actor, a.entity, a.entity_id, a.action, a.detail, a.address FROM audit_log a
            WHERE a.id < $2 AND (
                (a.entity = 'merchant' AND a.entity_id = $1)
                OR (a.entity = 'merchant_user' AND a.entity_id IN (SELECT id FROM merchant_users WHERE merchant_id = $1))
                OR (a.entity = 'payment' AND a.entity_id IN (SELECT id FROM payments WHERE merchant_id = $1))
                OR (a.entity = 'refund' AND a.entity_id IN (SELECT id FROM refunds WHERE merchant_id = $1))
                OR (a.entity = 'api_key' AND a.entity_id IN (SELECT id FROM api_keys WHERE merchant_id = $1))
                OR (a.entity = 'webhook_endpoint'
                    AND a.entity_id IN (SELECT id FROM webhook_endpoints WHERE merchant_id = $1)))
            ORDER BY a.id DESC LIMIT $3
            """, [.text(merchant), .integer(before ?? Int.max), .integer(Self.auditPageSize)])
        let people = Dictionary(
            try await accounts.team(merchantId: merchant).map { ($0.id, $0.email) }, uniquingKeysWith: { a, _ in a })
        var entries: [[String: Any]] = []
        var last: Int?
        for row in rows {
            last = try row.integer("id")
            let actor = try row.text("actor")
            let who =
                people[actor] ?? people[String(actor.drop { $0 != ":" }.dropFirst())]
                ?? (actor == merchant || actor == "merchant:\(merchant)" ? "the API (an API key)" : actor)
            entries.append([
                "at": Self.format(Date(millis: try row.integer("at"))), "actor": who, "action": try row.text("action"),
                "entity": try row.text("entity"), "entityId": try row.text("entity_id"),
                "detail": try row.text("detail"),
                "address": try row.optionalText("address") ?? "—",
            ])
        }
        var context = layout(session, current: "/console/audit")
        context["entries"] = entries
        if rows.count == Self.auditPageSize, let last { context["older"] = "/console/audit?before=\(last)" }
        return pages.page("audit", context)
    }
}
