import Foundation
import Hummingbird

extension ConsoleController {
    /// The merchant's API keys: names, ids, when created and last used; a secret only in the answer that made it.
    func developers(_ session: ConsoleSession, created: (name: String, secret: String)? = nil) async throws -> Response
    {
        let keys = try await APIKeyRepository(database: database).keys(merchantId: session.user.merchantId)
        var context = layout(session, current: "/console/developers")
        context["isAdmin"] = session.user.isAdmin
        context["keys"] = keys.reversed().map { key -> [String: Any] in
            [
                "id": key.id, "name": key.name ?? "unnamed", "created": Self.format(key.createdAt),
                "lastUsed": key.lastUsedAt.map(Self.format) ?? "never",
                "state": key.revokedAt.map { "revoked \(Self.format($0))" } ?? "active", "active": key.revokedAt == nil,
                "isAdmin": session.user.isAdmin, "csrf": session.csrfToken,
            ]
        }
        if let created {
            context["secret"] = created.secret
            context["name"] = created.name
        }
        return pages.page("developers", context)
    }

    func createKey(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard session.user.isAdmin else { return forbiddenPage(session, "Only admins create API keys.") }
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        guard (1...60).contains(name.count) else {
            var response = try await developers(session)
            response.status = .badRequest
            return response
        }
        let (_, secret) = try await APIKeyRepository(database: database).create(
            merchantId: session.user.merchantId, name: name, actor: session.user.id, now: clock())
        return try await developers(session, created: (name, secret.value))
    }
}
