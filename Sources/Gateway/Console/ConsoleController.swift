import EMV
import Foundation
import GatewayAPI
import HTTPTypes
public import Hummingbird
import Logging
import _SQLStorage

/// The merchant console at `/console`: server-rendered pages over the same services as the API (payments and
/// refunds through ``PaymentService``, the account link under ``AccountLinkRule``), for a merchant's users signed in
/// with a password.
///
/// Sessions live in the database behind an `HttpOnly`, `SameSite=Strict` cookie (`Secure` when the gateway is told
/// it is served over TLS); every form carries a CSRF token (the session's, or before sign-in a cookie's) and a
/// request from another origin is refused. Pages never show a full PAN, a key or a password.
public struct ConsoleController: Sendable {
    let accounts: ConsoleAccounts
    let payments: PaymentService
    let merchants: MerchantRepository
    let database: any SQLDatabase
    let pages: ConsolePages
    let clock: @Sendable () -> Date
    let secureCookies: Bool
    let webhooks: WebhookOutbox
    let applePayIdentities: ApplePayIdentityRepository
    let termsVersion = ConsoleTerms.current
    /// The server-driven readers the point of sale drives.
    let readers: ReaderHub?
    /// In-process loopback readers (`tap serve --virtual-reader`), when on.
    let virtualReaders: VirtualReaders?
    /// Sends e-mailed receipts, when an SMTP relay is configured.
    let mailer: ReceiptMailer?

    static let sessionCookie = sessionCookieName
    /// The session cookie's name (benchmarks sign in with it).
    public static let sessionCookieName = "console_session"
    static let formCookie = "console_form"

    init(
        accounts: ConsoleAccounts, payments: PaymentService, merchants: MerchantRepository, database: any SQLDatabase,
        webhooks: WebhookOutbox, clock: @escaping @Sendable () -> Date, secureCookies: Bool,
        readers: ReaderHub? = nil, virtualReaders: VirtualReaders? = nil, smtp: SMTPConfiguration? = nil
    ) throws {
        self.readers = readers
        self.virtualReaders = virtualReaders
        mailer = smtp.map { ReceiptMailer(configuration: $0) }
        self.webhooks = webhooks
        self.applePayIdentities = ApplePayIdentityRepository(database: database, keys: webhooks.keys)
        self.accounts = accounts
        self.payments = payments
        self.merchants = merchants
        self.database = database
        self.pages = try ConsolePages()
        self.clock = clock
        self.secureCookies = secureCookies
    }

    /// Adds the console's routes to `router` (outside the API's authenticated group).
    public func addRoutes(to router: some RouterMethods<GatewayRequestContext>) {
        addPointOfSaleRoutes(to: router)
        router.get("console/assets/:name") { _, context in
            guard let response = ConsolePages.asset(try context.parameters.require("name")) else {
                throw HTTPError(.notFound)
            }
            return response
        }
        router.get("console/sign-in") { request, _ in
            let console = ConsoleRequest(request: request)
            return signInPage(console, next: Self.signInTarget(console.query("next")))
        }
        router.post("console/sign-in") { request, context in
            try await AuditLog.$clientAddress.withValue(context.remoteAddress) { try await signIn(request, context) }
        }
        router.get("console/invitations/:token") { request, context in
            try await invitationPage(ConsoleRequest(request: request), token: try context.parameters.require("token"))
        }
        router.post("console/invitations/:token") { request, context in
            try await AuditLog.$clientAddress.withValue(context.remoteAddress) {
                try await acceptInvitation(request, context)
            }
        }
        router.post("console/sign-out") { request, context in
            try await withSession(request, context, form: true) { session, token, _ in
                try await accounts.closeSession(token: token, user: session.user, now: clock())
                return ConsolePages.redirect("/console/sign-in", cookies: [expiredCookie(Self.sessionCookie)])
            }
        }
        router.post("console/sign-out-everywhere") { request, context in
            try await withSession(request, context, form: true) { session, _, _ in
                try await accounts.closeAllSessions(of: session.user, now: clock())
                return ConsolePages.redirect("/console/sign-in", cookies: [expiredCookie(Self.sessionCookie)])
            }
        }
        router.get("console") { request, context in
            try await withSession(request, context) { session, _, _ in try await overview(session) }
        }
        router.get("console/payments") { request, context in
            try await withSession(request, context) { session, _, _ in
                try await paymentList(session, ConsoleRequest(request: request))
            }
        }
        router.get("console/payments/:id") { request, context in
            try await withSession(request, context) { session, _, _ in
                try await paymentPage(session, id: try context.parameters.require("id"))
            }
        }
        router.post("console/payments/:id/refunds") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await refund(session, id: try context.parameters.require("id"), form: form)
            }
        }
        router.post("console/payments/:id/capture") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await change(session, id: try context.parameters.require("id"), form: form, to: .capture)
            }
        }
        router.post("console/payments/:id/void") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await change(session, id: try context.parameters.require("id"), form: form, to: .void)
            }
        }
        router.get("console/tap-to-pay") { request, context in
            try await withSession(request, context) { session, _, _ in try await tapToPay(session) }
        }
        router.post("console/tap-to-pay/terms") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await acceptTerms(session, form: form)
            }
        }
        router.get("console/team") { request, context in
            try await withSession(request, context) { session, _, _ in try await team(session) }
        }
        router.post("console/team/invitations") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await invite(session, form: form, request: request)
            }
        }
        router.post("console/team/:id/deactivate") { request, context in
            try await withSession(request, context, form: true) { session, _, _ in
                guard session.user.isAdmin else { return forbiddenPage(session, "Only admins deactivate users.") }
                do {
                    try await accounts.deactivate(
                        userId: try context.parameters.require("id"), by: session.user, now: clock())
                } catch let error as DomainError {
                    return try await team(session, problem: error.message)
                }
                return ConsolePages.redirect("/console/team")
            }
        }
        router.get("console/developers") { request, context in
            try await withSession(request, context) { session, _, _ in try await developers(session) }
        }
        router.post("console/developers/keys") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await createKey(session, form: form)
            }
        }
        router.post("console/developers/keys/:id/revoke") { request, context in
            try await withSession(request, context, form: true) { session, _, _ in
                guard session.user.isAdmin else { return forbiddenPage(session, "Only admins revoke API keys.") }
                _ = try await APIKeyRepository(database: database).revoke(
                    id: try context.parameters.require("id"), merchantId: session.user.merchantId,
                    actor: session.user.id, now: clock())
                return ConsolePages.redirect("/console/developers")
            }
        }
        router.post("console/developers/webhooks") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await addWebhook(session, form: form)
            }
        }
        router.get("console/developers/webhooks/:id") { request, context in
            try await withSession(request, context) { session, _, _ in
                try await webhookPage(session, id: try context.parameters.require("id"))
            }
        }
        router.post("console/developers/webhooks/:id/test") { request, context in
            try await withSession(request, context, form: true) { session, _, _ in
                guard session.user.isAdmin else { return forbiddenPage(session, "Only admins send test events.") }
                let id = try context.parameters.require("id")
                try await webhooks.sendTestEvent(endpointId: id, merchantId: session.user.merchantId, now: clock())
                return ConsolePages.redirect("/console/developers/webhooks/\(id)")
            }
        }
        router.post("console/developers/webhooks/:id/disable") { request, context in
            try await withSession(request, context, form: true) { session, _, _ in
                guard session.user.isAdmin else { return forbiddenPage(session, "Only admins disable endpoints.") }
                let id = try context.parameters.require("id")
                try await webhooks.disable(
                    endpointId: id, merchantId: session.user.merchantId, actor: session.user.id, now: clock())
                return ConsolePages.redirect("/console/developers/webhooks/\(id)")
            }
        }
        router.get("console/apple-pay") { request, context in
            try await withSession(request, context) { session, _, _ in try await applePay(session) }
        }
        router.post("console/apple-pay") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await addApplePayCertificate(session, form: form)
            }
        }
        router.get("console/audit") { request, context in
            try await withSession(request, context) { session, _, _ in
                guard session.user.isAdmin else { return forbiddenPage(session, "Only admins read the audit log.") }
                return try await auditLog(
                    session, before: ConsoleRequest(request: request).query("before").flatMap(Int.init))
            }
        }
        router.post("console/team/refund-limit") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await setRefundLimit(session, form: form)
            }
        }
    }

    // MARK: - Sessions and forms

    /// Runs `body` for a signed-in request; a GET without a session goes to the sign-in page, a POST (with `form`)
    /// must carry the session's CSRF token and come from this origin.
    func withSession(
        _ request: Request, _ context: GatewayRequestContext, form: Bool = false, signIn next: String? = nil,
        _ body: (ConsoleSession, String, [String: String]) async throws -> Response
    ) async throws -> Response {
        let console = ConsoleRequest(request: request)
        guard let token = console.cookie(Self.sessionCookie),
            let session = try await accounts.session(token: token, now: clock())
        else {
            if form { return refused("Your session has ended. Sign in again.") }
            return ConsolePages.redirect(
                "/console/sign-in" + (next.map { "?next=\($0)" } ?? ""), cookies: [expiredCookie(Self.sessionCookie)])
        }
        var fields: [String: String] = [:]
        if form {
            fields = try await console.form(context: context)
            guard console.isSameOrigin, let sent = fields["_csrf"],
                ConstantTime.equal(sent.utf8, session.csrfToken.utf8)
            else {
                context.logger.warning("console form refused: CSRF", metadata: ["user": "\(session.user.id)"])
                return refused("This form is not valid any more. Go back, reload the page and try again.")
            }
        }
        return try await AuditLog.$clientAddress.withValue(context.remoteAddress) {
            try await body(session, token, fields)
        }
    }

    private func refused(_ text: String) -> Response {
        pages.page(
            "message",
            [
                "heading": "Request refused", "text": text,
                "link": ["href": "/console", "label": "Back to the console"],
            ],
            status: .forbidden)
    }

    private func cookie(_ name: String, _ value: String, maxAge: Int? = nil) -> String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=Strict" + (secureCookies ? "; Secure" : "")
            + (maxAge.map { "; Max-Age=\($0)" } ?? "")
    }

    private func expiredCookie(_ name: String) -> String { cookie(name, "", maxAge: 0) }

    /// The pre-session form token: the cookie's when it has one, else a new one to set.
    private func formToken(_ request: ConsoleRequest) -> (token: String, cookie: String?) {
        if let token = request.cookie(Self.formCookie), token.count >= 32 { return (token, nil) }
        let token = ConsoleAccounts.randomToken()
        return (token, cookie(Self.formCookie, token))
    }

    private func checkFormToken(_ request: ConsoleRequest, _ fields: [String: String]) -> Bool {
        guard request.isSameOrigin, let cookie = request.cookie(Self.formCookie), let sent = fields["_csrf"] else {
            return false
        }
        return ConstantTime.equal(cookie.utf8, sent.utf8)
    }

    /// The layout's keys: the navigation with the current page, the user, the CSRF token.
    func layout(_ session: ConsoleSession, current: String) -> [String: Any] {
        let items = [
            ("/console", "Overview"), ("/console/payments", "Payments"), ("/console/tap-to-pay", "Tap to Pay"),
            ("/console/team", "Team"), ("/console/developers", "Developers"), ("/console/apple-pay", "Apple Pay"),
            ("/console/audit", "Audit log"),
        ].map { ["href": $0.0, "label": $0.1, "current": $0.0 == current] as [String: Any] }
        return [
            "nav": [
                "items": items, "email": session.user.email, "role": session.user.role.rawValue,
                "csrf": session.csrfToken,
            ],
            "csrf": session.csrfToken,
        ]
    }

    // MARK: - Signing in

    /// Where a sign-in goes: the point of sale when it asked, else the console.
    static func signInTarget(_ next: String?) -> String { next == "/pos" ? "/pos" : "/console" }

    private func signInPage(
        _ request: ConsoleRequest, email: String = "", problem: String? = nil, next: String = "/console",
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let (token, cookie) = formToken(request)
        var context: [String: Any] = ["csrf": token, "email": email, "next": next]
        if let problem { context["problem"] = problem }
        return pages.page("sign-in", context, status: status, cookies: cookie.map { [$0] } ?? [])
    }

    private func signIn(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let console = ConsoleRequest(request: request)
        let fields = try await console.form(context: context)
        guard checkFormToken(console, fields) else {
            return signInPage(
                console, problem: "The form expired. Please try again.", next: Self.signInTarget(fields["next"]),
                status: .forbidden)
        }
        let email = fields["email"] ?? ""
        let next = Self.signInTarget(fields["next"])
        let address = context.remoteAddress ?? "unknown"
        switch try await accounts.signIn(
            email: email, password: fields["password"] ?? "", address: address, now: clock())
        {
        case .success(let user):
            let userAgent = request.headers[.userAgent] ?? ""
            let (token, _) = try await accounts.openSession(
                for: user, address: address, userAgent: userAgent, now: clock())
            context.logger.info("console sign-in", metadata: ["user": "\(user.id)", "merchant": "\(user.merchantId)"])
            return ConsolePages.redirect(
                next, cookies: [cookie(Self.sessionCookie, token), expiredCookie(Self.formCookie)])
        case .failure(.invalidCredentials):
            context.logger.notice("console sign-in refused", metadata: ["address": "\(address)"])
            return signInPage(
                console, email: email, problem: "The email or password is wrong.", next: next, status: .unauthorized)
        case .failure(.throttled(let until)):
            context.logger.warning("console sign-in throttled", metadata: ["address": "\(address)"])
            let minutes = max(1, Int(until.timeIntervalSince(clock()) / 60 + 0.99))
            return signInPage(
                console, email: email,
                problem: "Too many failed attempts. Try again in \(minutes) minute\(minutes == 1 ? "" : "s").",
                next: next, status: .tooManyRequests)
        }
    }

    private func invitationPage(
        _ request: ConsoleRequest, token: String, problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let user = try await accounts.invitedUser(token: token, now: clock())
        let (form, cookie) = formToken(request)
        var context: [String: Any] = [
            "csrf": form, "token": token, "minimum": ConsoleAccounts.minimumPasswordLength,
        ]
        if let user { context["email"] = user.email }
        if let problem { context["problem"] = problem }
        return pages.page(
            "invitation", context, status: user == nil ? .notFound : status, cookies: cookie.map { [$0] } ?? [])
    }

    private func acceptInvitation(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let console = ConsoleRequest(request: request)
        let token = try context.parameters.require("token")
        let fields = try await console.form(context: context)
        guard checkFormToken(console, fields) else {
            return try await invitationPage(
                console, token: token, problem: "The form expired. Please try again.", status: .forbidden)
        }
        do {
            _ = try await accounts.acceptInvitation(token: token, password: fields["password"] ?? "", now: clock())
        } catch let error as DomainError {
            return try await invitationPage(console, token: token, problem: error.message, status: .badRequest)
        }
        var response = pages.page(
            "message",
            [
                "heading": "Password set", "text": "You can sign in now.",
                "link": ["href": "/console/sign-in", "label": "Sign in"],
            ])
        response.headers.append(HTTPField(name: .setCookie, value: expiredCookie(Self.formCookie)))
        return response
    }
}

/// The Terms and Conditions of Tap to Pay the gateway asks an admin to accept: a versioned text.
enum ConsoleTerms {
    static let current = "2026-11"
    static let paragraphs = [
        "These terms govern accepting contactless payments on your devices through this payment service.",
        "You accept payments only for goods and services your business sells, in the amounts the customer agreed.",
        "You keep the devices that accept payments up to date and under your control, and you do not store, copy or "
            + "show card data: the payment service receives it encrypted.",
        "Each device may accept payments for a limited number of merchants in a day; the service may refuse payments "
            + "from a device it considers compromised.",
        "An admin of your account accepts these terms for every device of the account; staff cannot.",
    ]
}
