import EMV
import Foundation
import GatewayAPI
import HTTPTypes
import Hummingbird
import NIOCore
import _SQLStorage

/// The point-of-sale app at `/pos`: the merchant's countertop or phone checkout from Apple's Tap to Pay guidelines,
/// in the browser, on the console's accounts and sessions, driving the merchant's readers through the
/// ``ReaderHub`` (a `tap reader` on a USB NFC reader, or a virtual one on the loopback).
///
/// Screens: home (the account's link with the terms for admins, readiness, checkout with tip, and the reads without
/// an amount), the tap screen (the reader's live events, cancel, authorizing, the result with the reason and the
/// merchant's alternatives when a tap fails, receipts by QR code or print), help, settings, and the customer's
/// receipt page. Everything the reader does goes through the same services as the API; a PIN never reaches a page.
extension ConsoleController {
    func addPointOfSaleRoutes(to router: some RouterMethods<GatewayRequestContext>) {
        router.get("pos") { request, context in
            try await withSession(request, context, signIn: "/pos") { session, _, _ in
                try await posHome(session, query: Self.query(request, ["enabled", "reader", "amount"]))
            }
        }
        router.post("pos/enable") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await posEnable(session, form: form)
            }
        }
        router.post("pos/charge") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await posSend(session, form: form, type: .payment)
            }
        }
        router.post("pos/read") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                let type: ReaderCommand.Kind =
                    switch form["kind"] {
                    case "refund": .refund
                    case "loyalty": .loyalty
                    default: .verification
                    }
                return try await posSend(session, form: form, type: type)
            }
        }
        router.get("pos/commands/:id") { request, context in
            try await withSession(request, context, signIn: "/pos") { session, _, _ in
                try await posCommand(
                    session, id: try context.parameters.require("id"), base: Self.baseURL(request, secureCookies))
            }
        }
        router.post("pos/commands/:id/cancel") { request, context in
            try await withSession(request, context, form: true) { session, _, _ in
                try await posCancel(session, id: try context.parameters.require("id"))
            }
        }
        router.post("pos/commands/:id/email") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await posEmailReceipt(
                    session, id: try context.parameters.require("id"), form: form,
                    base: Self.baseURL(request, secureCookies))
            }
        }
        router.get("pos/readers/:readerId/events") { request, context in
            try await withSession(request, context) { session, _, _ in
                guard let readers else { throw HTTPError(.notFound) }
                return try await ReaderController.events(
                    hub: readers, merchantId: session.user.merchantId,
                    readerId: try context.parameters.require("readerId"), request: request)
            }
        }
        router.get("pos/status") { request, context in
            try await withSession(request, context) { session, _, _ in
                try await posStatus(session)
            }
        }
        router.get("pos/help") { request, context in
            try await withSession(request, context, signIn: "/pos") { session, _, _ in
                pages.page("pos-help", posLayout(session, title: "Help"))
            }
        }
        router.get("pos/settings") { request, context in
            try await withSession(request, context, signIn: "/pos") { session, _, _ in
                try await posSettings(session)
            }
        }
        router.post("pos/settings") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await posSaveSettings(session, form: form)
            }
        }
        router.post("pos/virtual-reader") { request, context in
            try await withSession(request, context, form: true) { session, _, _ in
                try await posStartVirtualReader(session)
            }
        }
        router.post("pos/virtual-reader/tap") { request, context in
            try await withSession(request, context, form: true) { session, _, form in
                try await posVirtualTap(session, form: form)
            }
        }
        router.get("pos/receipts/:token") { _, context in
            try await posReceipt(token: try context.parameters.require("token"))
        }
    }

    // MARK: - Home

    func posLayout(_ session: ConsoleSession, title: String) -> [String: Any] {
        [
            "title": title, "email": session.user.email, "role": session.user.role.rawValue,
            "csrf": session.csrfToken, "isAdmin": session.user.isAdmin,
        ]
    }

    /// The query parameters `names` that are present and not empty.
    static func query(_ request: Request, _ names: [String]) -> [String: String] {
        let console = ConsoleRequest(request: request)
        var values: [String: String] = [:]
        for name in names { values[name] = console.query(name) }
        return values
    }

    /// `http://host:port` as the client reached the gateway (https behind a TLS proxy): receipt links and their QR
    /// codes must open from the customer's phone.
    static func baseURL(_ request: Request, _ secure: Bool) -> String {
        (secure ? "https://" : "http://") + (request.head.authority ?? "127.0.0.1")
    }

    func posHome(
        _ session: ConsoleSession, query: [String: String] = [:], problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let merchant = try await merchant(session)
        var context = posLayout(session, title: "Checkout")
        context["merchant"] = merchant.name
        context["currency"] = merchant.currency.alphabeticCode
        context["linked"] = merchant.isAccountLinked
        context["enabledNow"] = query["enabled"] != nil
        if !merchant.isAccountLinked {
            if session.user.isAdmin {
                context["terms"] = ["version": termsVersion, "paragraphs": ConsoleTerms.paragraphs]
            } else {
                let admins = try await accounts.team(merchantId: merchant.id)
                    .filter { $0.role == .admin && $0.deactivatedAt == nil }.map(\.email)
                context["admins"] = admins.joined(separator: ", ")
            }
        }
        let list = try await readerList(session)
        let chosen = query["reader"] ?? list.data.first(where: \.online)?.id
        context["readers"] = list.data.map { reader in
            [
                "id": reader.id, "online": reader.online, "selected": reader.id == chosen,
                "label": reader.id + (reader.online ? "" : " (offline)")
                    + (isVirtual(reader.id, merchantId: merchant.id) ? " · virtual" : ""),
            ] as [String: Any]
        }
        context["onlineCount"] = list.data.filter(\.online).count
        context["amount"] = query["amount"] ?? ""
        context["submission"] = ConsoleAccounts.randomToken()
        context["loyaltyPass"] = try await loyaltyPass(merchantId: merchant.id) ?? ""
        context["canStartVirtual"] = virtualReaders != nil && session.user.isAdmin && merchant.isAccountLinked
        context["tips"] = Self.tipChoices.map {
            ["percent": $0, "checked": $0 == 0, "label": $0 == 0 ? "No tip" : "\($0) %"] as [String: Any]
        }
        if let problem { context["problem"] = problem }
        return pages.page("pos-home", context, status: status)
    }

    static let tipChoices = [0, 10, 15, 20]

    func posEnable(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard session.user.isAdmin else {
            return pages.page(
                "pos-message",
                posLayout(session, title: "Admins only").merging([
                    "heading": "An admin enables Tap to Pay",
                    "text": "Only an admin of this account can accept the Terms and Conditions.",
                ]) { $1 }, status: .forbidden)
        }
        guard form["version"] == termsVersion else { return ConsolePages.redirect("/pos") }
        do {
            _ = try await merchants.link(
                by: caller(session), deviceId: "pos", relink: false, termsVersion: termsVersion, now: clock())
        } catch let error as GatewayAPIError where error.code == .accountAlreadyLinked {
            // Accepted already (another admin, or this form twice).
        }
        return ConsolePages.redirect("/pos?enabled=1&amount=1.00")
    }

    /// The merchant's readers with their state (JSON): the home screen checks them when it opens and when it comes
    /// back to the foreground.
    func posStatus(_ session: ConsoleSession) async throws -> Response {
        let list = try await readerList(session)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try JSONEncoder.gatewayAPI.encode(list))))
    }

    func readerList(_ session: ConsoleSession) async throws -> ReaderList {
        guard let readers else { return ReaderList(data: []) }
        return try await ReaderController.readers(hub: readers, database: database, merchantId: session.user.merchantId)
    }

    // MARK: - Sending a command

    func posSend(_ session: ConsoleSession, form: [String: String], type: ReaderCommand.Kind) async throws -> Response {
        let merchant = try await merchant(session)
        let currency = merchant.currency.alphabeticCode
        guard let readers else { return try await posHome(session, problem: "No readers on this gateway.") }
        guard let readerId = form["reader"], !readerId.isEmpty else {
            return try await posHome(
                session, problem: "Choose a reader first: none is connected.", status: .badRequest)
        }
        var request = CreateReaderCommandRequest(type: type, currency: currency)
        switch type {
        case .payment, .refund:
            guard let amount = ConsoleMoney.parse(form["amount"] ?? "", currency), amount > 0 else {
                return try await posHome(
                    session, problem: "Enter an amount in \(currency), like 12.50.", status: .badRequest)
            }
            let tip = Int(form["tip"] ?? "0").flatMap { Self.tipChoices.contains($0) ? $0 : nil } ?? 0
            request.amount = type == .payment ? amount + (amount * tip + 50) / 100 : amount
            if type == .payment, form["loyalty"] == "on", let pass = try await loyaltyPass(merchantId: merchant.id) {
                request.loyaltyPasses = [pass]
            }
        case .verification:
            request.verificationReason = form["kind"] == "lookUp" ? .lookUp : .other
        case .loyalty:
            guard let pass = try await loyaltyPass(merchantId: merchant.id) else {
                return try await posHome(
                    session, problem: "No loyalty program is set up: an admin adds it in Settings.",
                    status: .badRequest)
            }
            request.loyaltyPasses = [pass]
        }
        if type == .refund, !session.user.isAdmin {
            guard let limit = try await refundLimit(merchantId: merchant.id), (request.amount ?? 0) <= limit else {
                return try await posHome(
                    session, problem: "Staff may not refund this much; ask an admin.", status: .forbidden)
            }
        }
        guard let submission = form["submission"], (32...64).contains(submission.count),
            try await claimSubmission(submission, merchantId: merchant.id)
        else { return ConsolePages.redirect("/pos") }
        do {
            let command = try await ReaderController.send(
                request, to: readerId, merchantId: merchant.id, hub: readers, database: database, logger: nil)
            return ConsolePages.redirect("/pos/commands/\(command.id)")
        } catch let error as GatewayAPIError {
            var text = error.message
            if error.code == .readerBusy {
                text = "That reader is busy with another checkout. Use another reader or wait."
            } else if error.code == .readerOffline {
                text = "That reader is not connected. Start it, or use another reader."
            }
            return try await posHome(session, problem: text, status: .conflict)
        }
    }

    func posCancel(_ session: ConsoleSession, id: String) async throws -> Response {
        guard let readers, let command = await readers.command(id, merchantId: session.user.merchantId) else {
            throw HTTPError(.notFound)
        }
        _ = try? await readers.cancel(readerId: command.readerId, merchantId: session.user.merchantId)
        return ConsolePages.redirect("/pos/commands/\(id)")
    }

    // MARK: - The tap screen and the result

    func posCommand(
        _ session: ConsoleSession, id: String, base: String, notice: String? = nil, problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let readers, let command = await readers.command(id, merchantId: session.user.merchantId) else {
            return pages.page(
                "pos-message",
                posLayout(session, title: "Not found").merging([
                    "heading": "No such checkout", "text": "It may be from before the gateway restarted.",
                ]) { $1 }, status: .notFound)
        }
        let merchant = try await merchant(session)
        var context = posLayout(session, title: command.status.isFinal ? "Result" : "Tap")
        context["id"] = command.id
        context["reader"] = command.readerId
        context["amount"] = command.amount.map { ConsoleMoney.format($0, command.currency) } ?? ""
        context["amountValue"] = command.amount.map { ConsoleMoney.amountText($0, command.currency) } ?? ""
        context["heading"] = PointOfSaleText.heading(of: command)
        context["running"] = !command.status.isFinal
        context["submission"] = ConsoleAccounts.randomToken()
        if !command.status.isFinal {
            let virtual = isVirtual(command.readerId, merchantId: merchant.id)
            context["hasVirtualCards"] = virtual
            context["virtualCards"] =
                virtual ? VirtualReaders.cards.map { ["cardId": $0.id, "cardLabel": $0.label] } : []
            return pages.page("pos-command", context)
        }
        let outcome = PointOfSaleText.outcome(of: command)
        context["outcome"] = outcome.kind
        context["approved"] = outcome.kind == "approved"
        context["title"] = outcome.title
        context["reason"] = outcome.reason
        if let payment = command.result?.payment {
            context["card"] = payment.card.map { "\($0.scheme.capitalized) …\($0.last4)" } ?? ""
            context["approvalCode"] = payment.issuer?.approvalCode ?? ""
            context["paymentId"] = payment.id
            if outcome.kind == "approved", command.type == .payment {
                let url = base + (try await receiptPath(paymentId: payment.id, merchantId: merchant.id))
                context["receiptURL"] = url
                context["receiptQR"] = (try? QRCode(url).svg(title: "Receipt link: \(url)")) ?? ""
                context["canEmail"] = mailer != nil
            }
            if command.type == .verification, command.verificationReason == .lookUp, let card = payment.card {
                let found = try await payments.payments(
                    caller: caller(session),
                    filter: PaymentFilter(status: .succeeded, last4: card.last4, bin: card.bin),
                    startingAfter: nil, limit: 10)
                let purchases = found.data.filter { $0.kind == .purchase }
                context["hasLookUp"] = !purchases.isEmpty
                context["lookUp"] = purchases.map {
                    [
                        "id": $0.id, "amount": ConsoleMoney.format($0.amount, $0.currency),
                        "created": Self.format($0.createdAt),
                    ]
                }
            }
        }
        if let notice { context["notice"] = notice }
        if let problem { context["problem"] = problem }
        if let refund = command.result?.refund { context["refundId"] = refund.id }
        if let loyalty = command.result?.loyalty { context["loyalty"] = PointOfSaleText.loyalty(loyalty) }
        if outcome.kind != "approved" && outcome.kind != "canceled" {
            let offered = try await alternatives(merchantId: merchant.id)
            context["hasAlternatives"] = !offered.isEmpty
            context["alternatives"] = PointOfSaleText.alternatives.filter { offered.contains($0.id) }.map {
                ["id": $0.id, "label": $0.label, "retry": $0.id == "tryAgain", "otherReader": $0.id == "anotherReader"]
            }
            context["retryType"] = command.type == .payment ? "charge" : ""
        }
        return pages.page("pos-command", context, status: status)
    }

    // MARK: - Receipts

    /// E-mails the receipt of a command's approved payment through the configured relay.
    func posEmailReceipt(
        _ session: ConsoleSession, id: String, form: [String: String], base: String
    ) async throws -> Response {
        guard let mailer, let readers, let command = await readers.command(id, merchantId: session.user.merchantId),
            let payment = command.result?.payment, command.type == .payment,
            payment.status == .succeeded || payment.status == .requiresCapture
        else { throw HTTPError(.notFound) }
        let address = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        guard ReceiptMailer.isDeliverable(address) else {
            return try await posCommand(
                session, id: id, base: base, problem: "That is not an e-mail address.", status: .badRequest)
        }
        let merchant = try await merchant(session)
        let url = base + (try await receiptPath(paymentId: payment.id, merchantId: merchant.id))
        let lines = [
            "Thank you for your purchase at \(merchant.name).", "",
            "Amount: \(ConsoleMoney.format(payment.amount, payment.currency))",
            "Date: \(Self.format(payment.createdAt))",
            "Card: " + (payment.card.map { "\($0.scheme.capitalized) …\($0.last4) (contactless)" } ?? ""),
            "Approval code: \(payment.issuer?.approvalCode ?? "")", "Reference: \(payment.id)", "",
            "Your receipt online: \(url)",
        ]
        do {
            try await mailer.send(
                to: address, subject: "Your receipt from \(merchant.name)", body: lines.joined(separator: "\n"),
                now: clock())
        } catch {
            return try await posCommand(
                session, id: id, base: base, problem: "The receipt could not be sent; try again or print it.",
                status: .badGateway)
        }
        try await AuditLog.record(
            on: database, at: clock(), actor: "user:\(session.user.id)", entity: "payment", id: payment.id,
            action: "receiptEmailed", detail: "to \(ReceiptMailer.masked(address))")
        return try await posCommand(
            session, id: id, base: base, notice: "Receipt sent to \(ReceiptMailer.masked(address)).")
    }

    /// The path of the customer's receipt of a payment: one per payment, made when first shown.
    func receiptPath(paymentId: String, merchantId: String) async throws -> String {
        if let token = try await receiptToken(paymentId: paymentId, merchantId: merchantId) {
            return "/pos/receipts/\(token)"
        }
        // Another screen may make it at the same time: the insert that loses is refused, and the winner's stands.
        let inserted = try? await database.query(
            "INSERT INTO pos_receipts (token, merchant_id, payment_id, created_at) VALUES ($1, $2, $3, $4)",
            [.text(ConsoleAccounts.randomToken()), .text(merchantId), .text(paymentId), .integer(clock().millis)])
        _ = inserted
        guard let token = try await receiptToken(paymentId: paymentId, merchantId: merchantId) else {
            throw HTTPError(.internalServerError)
        }
        return "/pos/receipts/\(token)"
    }

    private func receiptToken(paymentId: String, merchantId: String) async throws -> String? {
        try await database.query(
            "SELECT token FROM pos_receipts WHERE payment_id = $1 AND merchant_id = $2",
            [.text(paymentId), .text(merchantId)]
        ).first?.text("token")
    }

    func posReceipt(token: String) async throws -> Response {
        let rows = try await database.query(
            "SELECT merchant_id, payment_id FROM pos_receipts WHERE token = $1", [.text(token)])
        guard let row = rows.first, let paymentId = try row.optionalText("payment_id") else {
            return pages.page(
                "pos-message", ["heading": "No such receipt", "text": "Check the link you were given."],
                status: .notFound)
        }
        let merchantId = try row.text("merchant_id")
        let payment = try await payments.payment(
            paymentId, caller: Caller(credential: .consoleSession, merchantId: merchantId))
        guard let merchant = try await merchants.merchant(id: merchantId) else { throw HTTPError(.notFound) }
        return pages.page(
            "pos-receipt",
            [
                "merchant": merchant.name, "date": Self.format(payment.createdAt),
                "amount": ConsoleMoney.format(payment.capturedAmount, payment.currency),
                "card": payment.card.map { "\($0.scheme.capitalized) …\($0.last4) (contactless)" } ?? "",
                "approvalCode": payment.issuer?.approvalCode ?? "", "reference": payment.id,
                "refunded": payment.refundedAmount > 0
                    ? ConsoleMoney.format(payment.refundedAmount, payment.currency) : "",
            ])
    }

    // MARK: - Settings

    static let defaultAlternatives = PointOfSaleText.alternatives.map(\.id)

    /// The merchant's loyalty pass type (Apple VAS), set in settings; nil when it has no loyalty program here.
    func loyaltyPass(merchantId: String) async throws -> String? {
        let rows = try await database.query(
            "SELECT pos_loyalty_pass FROM merchants WHERE id = $1", [.text(merchantId)])
        return try rows.first?.optionalText("pos_loyalty_pass").flatMap { $0.isEmpty ? nil : $0 }
    }

    func alternatives(merchantId: String) async throws -> [String] {
        let rows = try await database.query(
            "SELECT pos_alternatives FROM merchants WHERE id = $1", [.text(merchantId)])
        guard let text = try rows.first?.optionalText("pos_alternatives") else { return Self.defaultAlternatives }
        return text.split(separator: ",").map(String.init)
    }

    func posSettings(
        _ session: ConsoleSession, notice: String? = nil, problem: String? = nil
    ) async throws -> Response {
        let offered = try await alternatives(merchantId: session.user.merchantId)
        var context = posLayout(session, title: "Settings")
        context["loyaltyPass"] = try await loyaltyPass(merchantId: session.user.merchantId) ?? ""
        context["alternatives"] = PointOfSaleText.alternatives.map {
            ["id": $0.id, "label": $0.label, "checked": offered.contains($0.id), "isAdmin": session.user.isAdmin]
        }
        if let notice { context["notice"] = notice }
        if let problem { context["problem"] = problem }
        return pages.page("pos-settings", context, status: problem == nil ? .ok : .badRequest)
    }

    func posSaveSettings(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard session.user.isAdmin else {
            return pages.page(
                "pos-message",
                posLayout(session, title: "Admins only").merging([
                    "heading": "Admins only", "text": "Only an admin changes what the checkout offers.",
                ]) { $1 }, status: .forbidden)
        }
        let chosen = PointOfSaleText.alternatives.map(\.id).filter { form["alt-\($0)"] == "on" }
        let pass = (form["loyaltyPass"] ?? "").trimmingCharacters(in: .whitespaces)
        guard pass.utf8.count <= 256, pass.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            return try await posSettings(
                session, problem: "A pass type identifier looks like pass.com.example.rewards.")
        }
        try await database.query(
            "UPDATE merchants SET pos_alternatives = $1, pos_loyalty_pass = $2 WHERE id = $3",
            [.text(chosen.joined(separator: ",")), .text(pass), .text(session.user.merchantId)])
        try await AuditLog.record(
            on: database, at: clock(), actor: "user:\(session.user.id)", entity: "merchant",
            id: session.user.merchantId, action: "posAlternativesSet", detail: chosen.joined(separator: ", "))
        return try await posSettings(session, notice: "Saved.")
    }

    // MARK: - The virtual reader

    func isVirtual(_ readerId: String, merchantId: String) -> Bool {
        readerId == VirtualReaders.readerId(merchantId: merchantId) && virtualReaders != nil
    }

    func posStartVirtualReader(_ session: ConsoleSession) async throws -> Response {
        guard let virtualReaders, session.user.isAdmin else { throw HTTPError(.notFound) }
        let readerId = try await virtualReaders.start(merchantId: session.user.merchantId, userId: session.user.id)
        return ConsolePages.redirect("/pos?reader=\(readerId)")
    }

    func posVirtualTap(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard let virtualReaders, let card = form["card"], let command = form["command"] else {
            throw HTTPError(.notFound)
        }
        await virtualReaders.tap(card, readerId: VirtualReaders.readerId(merchantId: session.user.merchantId))
        return ConsolePages.redirect("/pos/commands/\(command)")
    }
}

/// The words the point of sale shows: plain, for the merchant and the customer in front of them.
enum PointOfSaleText {
    struct Outcome {
        var kind: String
        var title: String
        var reason: String
    }

    /// What the merchant may offer when a tap fails (the admin picks them in settings).
    static let alternatives: [(id: String, label: String)] = [
        ("tryAgain", "Try again"), ("anotherReader", "Use another reader"), ("cash", "Take cash"),
        ("otherMethod", "Use another payment method (chip and PIN terminal, payment link)"),
    ]

    static func heading(of command: ReaderCommand) -> String {
        switch command.type {
        case .payment: "Payment"
        case .refund: "Refund"
        case .verification: command.verificationReason == .lookUp ? "Look up" : "Verify card"
        case .loyalty: "Loyalty card"
        }
    }

    static func outcome(of command: ReaderCommand) -> Outcome {
        if command.status == .canceled {
            return Outcome(kind: "canceled", title: "Canceled", reason: "Nothing was charged.")
        }
        if command.type == .loyalty, command.status == .completed, let loyalty = command.result?.loyalty {
            let found = loyalty.status == "success"
            return Outcome(
                kind: found ? "approved" : "failed", title: found ? "Loyalty card read" : "No loyalty card",
                reason: Self.loyalty(loyalty))
        }
        if let refund = command.result?.refund {
            return Outcome(
                kind: "approved", title: "Refunded",
                reason: "\(ConsoleMoney.format(refund.amount, refund.currency)) goes back to the card.")
        }
        if let payment = command.result?.payment, command.status == .completed {
            switch payment.status {
            case .succeeded, .requiresCapture:
                let title =
                    command.type == .payment
                    ? "Approved" : command.verificationReason == .lookUp ? "Card read" : "Card verified"
                return Outcome(kind: "approved", title: title, reason: "")
            case .declined:
                return Outcome(kind: "declined", title: "Declined", reason: declineReason(payment.failureCode))
            default:
                return Outcome(kind: "failed", title: "Not completed", reason: declineReason(payment.failureCode))
            }
        }
        let code = command.result?.failure?.code ?? ""
        return Outcome(
            kind: "failed", title: "Not completed", reason: failureReason(code, command.result?.failure?.message))
    }

    /// The loyalty line of a result: the member, or why there is none.
    static func loyalty(_ result: ReaderLoyaltyResult) -> String {
        switch result.status {
        case "success": result.memberId.map { "Loyalty member \($0)." } ?? "The loyalty card was read."
        case "dataNotFound": "The customer's phone has no loyalty card of this shop."
        case "userInterventionRequired": "The customer unlocks the phone's wallet first, then taps again."
        default: "The loyalty card could not be read."
        }
    }

    static func declineReason(_ code: String?) -> String {
        switch code {
        case "insufficientFunds": "The card's bank declined it: not enough funds. Ask for another card or method."
        case "expiredCard": "The card has expired. Ask for another card."
        case "incorrectPIN": "The PIN was not correct."
        case "pinTryExceeded": "Too many wrong PINs: the card's bank blocked PIN use. Ask for another card."
        case "exceedsAmountLimit": "The amount is over the card's limit. Ask for another card or method."
        case "issuerUnavailable": "The card's bank did not answer in time. Nothing was charged; try again."
        default: "The card's bank declined the payment. Ask for another card or method."
        }
    }

    static func failureReason(_ code: String, _ message: String?) -> String {
        switch code {
        case "cardReadFailed":
            "The card could not be read. Ask the customer to hold it flat near the reader, without moving, until it beeps."
        case "cardNotSupported":
            "This card can't be used contactless here: it may not be accepted, or the amount is over its contactless "
                + "limit. Insert the card in a chip and PIN terminal, or use another method."
        case "paymentCardDeclined": "The card itself declined the payment. Ask for another card or method."
        case "readerDisconnected", "readerRestarted":
            "The reader lost its connection before the payment finished. Nothing was charged."
        case "pinCancelled": "PIN entry was canceled. Nothing was charged."
        case "pinEntryTimeout": "The PIN was not entered in time. Nothing was charged."
        case "readCancelled": "Canceled. Nothing was charged."
        case "vasReadFail": "No loyalty card: the card or phone tapped carries none for this shop."
        case "issuerUnavailable": "The card's bank did not answer in time. Nothing was charged; try again."
        default: message ?? "The reader could not finish. Nothing was charged."
        }
    }
}
