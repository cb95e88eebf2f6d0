import Foundation
import Hummingbird

extension ConsoleController {
    /// The merchant's API keys: names, ids, when created and last used; a secret only in the answer that made it.
    func developers(
        _ session: ConsoleSession, created: (name: String, secret: String)? = nil, hookSecret: String? = nil,
        problem: String? = nil
    ) async throws -> Response {
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
        context["endpoints"] = try await webhooks.endpoints(merchantId: session.user.merchantId).map { endpoint in
            [
                "id": endpoint.id, "url": endpoint.url, "created": Self.format(endpoint.createdAt),
                "state": endpoint.disabledAt.map { "disabled \(Self.format($0))" } ?? "active",
            ]
        }
        if let hookSecret { context["hookSecret"] = hookSecret }
        if let problem { context["problem"] = problem }
        return pages.page("developers", context, status: problem == nil ? .ok : .badRequest)
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

extension ConsoleController {
    func addWebhook(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard session.user.isAdmin else { return forbiddenPage(session, "Only admins add webhook endpoints.") }
        do {
            let (_, secret) = try await webhooks.addEndpoint(
                merchantId: session.user.merchantId, url: (form["url"] ?? "").trimmingCharacters(in: .whitespaces),
                actor: session.user.id, now: clock())
            return try await developers(session, hookSecret: secret)
        } catch let error as DomainError {
            return try await developers(session, problem: error.message)
        }
    }

    func webhookPage(_ session: ConsoleSession, id: String) async throws -> Response {
        guard
            let endpoint = try await webhooks.endpoints(merchantId: session.user.merchantId).first(where: {
                $0.id == id
            })
        else {
            return pages.page(
                "message",
                layout(session, current: "/console/developers").merging([
                    "heading": "No such endpoint",
                    "text": "This account has no webhook endpoint \(id).",
                ]) { $1 }, status: .notFound)
        }
        var context = layout(session, current: "/console/developers")
        context["id"] = endpoint.id
        context["url"] = endpoint.url
        context["active"] = endpoint.disabledAt == nil
        context["state"] = endpoint.disabledAt.map { "Disabled \(Self.format($0))." } ?? "Active."
        context["isAdmin"] = session.user.isAdmin
        context["deliveries"] = try await webhooks.deliveries(endpointId: id, merchantId: session.user.merchantId).map {
            delivery -> [String: Any] in
            [
                "eventId": delivery.eventId, "type": delivery.type, "state": delivery.state,
                "attempts": delivery.attempts,
                "last": delivery.lastStatus.map { "HTTP \($0)" } ?? delivery.lastError ?? "—",
                "next": delivery.state == "pending" ? delivery.nextAttemptAt.map(Self.format) ?? "—" : "—",
            ]
        }
        return pages.page("webhook", context)
    }
}
