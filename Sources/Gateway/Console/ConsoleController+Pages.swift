import EMV
import Foundation
import GatewayAPI
import Hummingbird
import _SQLStorage

extension ConsoleController {
    /// "28 Nov 2026, 18:38 UTC".
    static func format(_ date: Date) -> String { formatter("d MMM yyyy, HH:mm 'UTC'").string(from: date) }

    static func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }

    func caller(_ session: ConsoleSession) -> Caller {
        Caller(
            credential: .consoleSession, merchantId: session.user.merchantId, userId: session.user.id,
            isAdmin: session.user.isAdmin)
    }

    func merchant(_ session: ConsoleSession) async throws -> Merchant {
        guard let merchant = try await merchants.merchant(id: session.user.merchantId) else {
            throw HTTPError(.notFound)
        }
        return merchant
    }

    // MARK: - Overview

    func overview(_ session: ConsoleSession) async throws -> Response {
        let merchant = try await merchant(session)
        let currency = merchant.currency.alphabeticCode
        let now = clock()
        let day: Int64 = 86_400_000
        let today = Int64(now.millis) / day * day
        let weekStart = today - 6 * day
        let id = session.user.merchantId
        let daily = try await database.query(
            """
            SELECT (created_at - $2) / \(day) AS slot, SUM(captured_amount) AS volume,
                SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS approved,
                SUM(CASE WHEN status = 'declined' THEN 1 ELSE 0 END) AS declined
            FROM payments WHERE merchant_id = $1 AND created_at >= $2 AND currency = $3 GROUP BY slot
            """, [.text(id), .integer(Int(weekStart)), .text(currency)])
        var volume = [Int](repeating: 0, count: 7)
        var approved = 0, declined = 0
        for row in daily {
            let slot = try row.integer("slot")
            if (0..<7).contains(slot) { volume[slot] = try row.optionalInteger("volume") ?? 0 }
            approved += try row.optionalInteger("approved") ?? 0
            declined += try row.optionalInteger("declined") ?? 0
        }
        let hourStart = Int64(now.millis) / 3_600_000 * 3_600_000 - 23 * 3_600_000
        let hourly = try await database.query(
            """
            SELECT (created_at - $2) / 3600000 AS slot, COUNT(*) AS total,
                SUM(CASE WHEN status = 'declined' THEN 1 ELSE 0 END) AS declined
            FROM payments WHERE merchant_id = $1 AND created_at >= $2 GROUP BY slot
            """, [.text(id), .integer(Int(hourStart))])
        var perHour = [Int](repeating: 0, count: 24)
        for row in hourly where (0..<24).contains(try row.integer("slot")) {
            perHour[try row.integer("slot")] = try row.integer("total")
        }
        let reasons = try await database.query(
            """
            SELECT COALESCE(failure_code, response_code, 'unknown') AS reason, COUNT(*) AS total FROM payments
            WHERE merchant_id = $1 AND created_at >= $2 AND status = 'declined' GROUP BY reason ORDER BY total DESC
            """, [.text(id), .integer(Int(weekStart))])
        let dayLabel = Self.formatter("d MMM")
        let volumeBars = (0..<7).map { index in
            ConsoleCharts.Bar(
                label: dayLabel.string(from: Date(millis: Int(weekStart) + index * Int(day))),
                value: Double(volume[index]), text: ConsoleMoney.format(volume[index], currency))
        }
        let hourBars = (0..<24).map { index in
            ConsoleCharts.Bar(
                label: String(format: "%02d:00", (Int(hourStart / 3_600_000) + index) % 24),
                value: Double(perHour[index]),
                text: "\(perHour[index]) authorizations")
        }
        var declineBars: [ConsoleCharts.Bar] = []
        for row in reasons {
            let total = try row.integer("total")
            declineBars.append(
                ConsoleCharts.Bar(label: try row.text("reason"), value: Double(total), text: "\(total)", isBad: true))
        }
        let decided = approved + declined
        let context = layout(session, current: "/console").merging([
            "today": ConsoleMoney.format(volume[6], currency),
            "week": ConsoleMoney.format(volume.reduce(0, +), currency),
            "approvalRate": decided == 0 ? "–" : String(format: "%.1f %%", 100 * Double(approved) / Double(decided)),
            "count": "\(decided)",
            "volumeChart": ConsoleCharts.bars(id: "volume", title: "Volume per day, last 7 days", bars: volumeBars),
            "hourlyChart": ConsoleCharts.bars(
                id: "hourly", title: "Authorizations per hour, last 24 hours", bars: hourBars),
            "declineChart": declineBars.isEmpty
                ? "<p>No declines in the last 7 days.</p>"
                : ConsoleCharts.bars(id: "declines", title: "Declines by reason, last 7 days", bars: declineBars),
        ]) { $1 }
        return pages.page("overview", context)
    }

    // MARK: - Payments

    static let pageSize = 25

    func paymentList(_ session: ConsoleSession, _ request: ConsoleRequest) async throws -> Response {
        let merchant = try await merchant(session)
        let currency = merchant.currency.alphabeticCode
        var filter = PaymentFilter()
        var problems: [String] = []
        if let status = request.query("status") {
            if let value = PaymentStatus(rawValue: status) { filter.status = value } else { problems.append("status") }
        }
        let dayParser = Date.ISO8601FormatStyle().year().month().day()
        if let from = request.query("from") {
            if let date = try? Date(from, strategy: dayParser) {
                filter.createdFrom = date
            } else {
                problems.append("from")
            }
        }
        if let to = request.query("to") {
            if let date = try? Date(to, strategy: dayParser) {
                filter.createdBefore = date.addingTimeInterval(86_400)
            } else {
                problems.append("to")
            }
        }
        if let min = request.query("min") {
            if let value = ConsoleMoney.parse(min, currency) {
                filter.minimumAmount = value
            } else {
                problems.append("minimum amount")
            }
        }
        if let max = request.query("max") {
            if let value = ConsoleMoney.parse(max, currency) {
                filter.maximumAmount = value
            } else {
                problems.append("maximum amount")
            }
        }
        if let card = request.query("card") {
            if card.count == 4, card.allSatisfy(\.isNumber) {
                filter.last4 = card
            } else if card.count == 6, card.allSatisfy(\.isNumber) {
                filter.bin = card
            } else {
                problems.append("card (a BIN of six digits or the last four)")
            }
        }
        filter.deviceId = request.query("device")
        let list: PaymentList
        do {
            list = try await payments.payments(
                caller: caller(session), filter: filter, startingAfter: request.query("after"),
                limit: Self.pageSize)
        } catch let error as GatewayAPIError {
            problems.append(error.message)
            list = PaymentList(data: [], hasMore: false)
        }
        var query: [String] = []
        for name in ["status", "from", "to", "min", "max", "card", "device"] {
            if let value = request.query(name) {
                query.append("\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
            }
        }
        let base = "/console/payments?" + query.joined(separator: "&")
        var context = layout(session, current: "/console/payments").merging([
            "statuses": PaymentStatus.allCases.map { ["value": $0.rawValue, "selected": $0 == filter.status] },
            "from": request.query("from") ?? "", "to": request.query("to") ?? "", "min": request.query("min") ?? "",
            "max": request.query("max") ?? "", "card": request.query("card") ?? "",
            "device": request.query("device") ?? "",
            "payments": list.data.map { payment in
                [
                    "id": payment.id, "created": Self.format(payment.createdAt),
                    "amount": ConsoleMoney.format(payment.amount, payment.currency), "status": payment.status.rawValue,
                    "card": payment.card.map { "\($0.scheme) \($0.bin)…\($0.last4)" } ?? "—",
                    "device": payment.deviceId ?? "—",
                ]
            },
        ]) { $1 }
        if list.hasMore, let last = list.data.last { context["next"] = base + "&after=\(last.id)" }
        if request.query("after") != nil { context["newest"] = base }
        if !problems.isEmpty { context["problem"] = "Not understood: " + problems.joined(separator: ", ") + "." }
        return pages.page("payments", context, status: problems.isEmpty ? .ok : .badRequest)
    }

    func paymentPage(
        _ session: ConsoleSession, id: String, notice: String? = nil, problem: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let merchant = try await merchant(session)
        let payment: Payment
        do {
            payment = try await payments.payment(id, caller: caller(session))
        } catch let error as GatewayAPIError where error.code == .notFound {
            return pages.page(
                "message",
                layout(session, current: "/console/payments").merging([
                    "heading": "No such payment", "text": "This account has no payment \(id).",
                ]) { $1 }, status: .notFound)
        }
        let entries = try await AuditLog.entries(on: database, entity: "payment", entityId: id)
        let remaining = payment.capturedAmount - payment.refundedAmount
        let limit = try await refundLimit(merchantId: merchant.id)
        let card = payment.card.map { "\($0.scheme) \($0.bin)…\($0.last4)" } ?? "—"
        var context = layout(session, current: "/console/payments").merging([
            "id": payment.id, "merchant": merchant.name,
            "amount": ConsoleMoney.format(payment.amount, payment.currency),
            "status": payment.status.rawValue,
            "captured": ConsoleMoney.format(payment.capturedAmount, payment.currency),
            "refunded": ConsoleMoney.format(payment.refundedAmount, payment.currency), "card": card,
            "entryMode": payment.card?.entryMode ?? "—", "responseCode": payment.issuer?.responseCode ?? "none",
            "approvalCode": payment.issuer?.approvalCode ?? "", "device": payment.deviceId ?? "—",
            "created": Self.format(payment.createdAt), "currency": payment.currency,
            "timeline": entries.map { entry in
                [
                    "iso": ISO8601DateFormatter().string(from: entry.at), "at": Self.format(entry.at),
                    "action": entry.action, "detail": entry.detail, "actor": entry.actor,
                ]
            },
            "canRefund": payment.status == .succeeded && payment.kind == .purchase && remaining > 0,
            "remaining": ConsoleMoney.amountText(remaining, payment.currency),
            "submission": ConsoleAccounts.randomToken(),
            "refundLimitHint": session.user.isAdmin
                ? "Admins may refund up to what remains."
                : limit.map {
                    "Staff may refund up to \(ConsoleMoney.format($0, payment.currency)) of a payment in all."
                }
                    ?? "Staff may not refund: the admin set no limit.",
        ]) { $1 }
        // Capture and void are an admin's, of a payment not yet captured.
        let uncaptured = payment.status == .requiresCapture || payment.status == .requiresPIN
        context["canCapture"] = payment.status == .requiresCapture && session.user.isAdmin
        context["canVoid"] = uncaptured && session.user.isAdmin
        context["staffCannotChange"] = uncaptured && !session.user.isAdmin
        context["capturable"] = ConsoleMoney.amountText(payment.amount, payment.currency)
        if let notice { context["notice"] = notice }
        if let problem { context["problem"] = problem }
        return pages.page("payment", context, status: status)
    }

    /// A refund from the payment page: the API's rules (``PaymentService``), staff within the admin's limit, and a
    /// form submitted twice (a double click, a reload) refunds once.
    func refund(_ session: ConsoleSession, id: String, form: [String: String]) async throws -> Response {
        let payment: Payment
        do {
            payment = try await payments.payment(id, caller: caller(session))
        } catch {
            return try await paymentPage(session, id: id)
        }
        guard let amount = ConsoleMoney.parse(form["amount"] ?? "", payment.currency), amount > 0 else {
            return try await paymentPage(
                session, id: id, problem: "The amount is not a positive amount in \(payment.currency).",
                status: .badRequest)
        }
        if !session.user.isAdmin {
            // The limit caps what staff refund of one payment in all, not each refund.
            guard let limit = try await refundLimit(merchantId: session.user.merchantId),
                payment.refundedAmount + amount <= limit
            else {
                return try await paymentPage(
                    session, id: id, problem: "Staff may not refund this much; ask an admin.", status: .forbidden)
            }
        }
        guard let submission = form["submission"], (32...64).contains(submission.count),
            try await claimSubmission(submission, merchantId: session.user.merchantId)
        else {
            // The same form again: the first submission's refund stands, shown on the page.
            return ConsolePages.redirect("/console/payments/\(id)")
        }
        do {
            let refund = try await payments.refund(
                id,
                request: CreateRefundRequest(amount: amount, reason: form["reason"].flatMap { $0.isEmpty ? nil : $0 }),
                caller: caller(session))
            return try await paymentPage(
                session, id: id,
                notice: "Refunded \(ConsoleMoney.format(refund.amount, refund.currency)) (\(refund.id)).")
        } catch let error as GatewayAPIError {
            return try await paymentPage(session, id: id, problem: error.message, status: .badRequest)
        }
    }

    /// What an admin does to an uncaptured payment from its page.
    enum PaymentChange { case capture, void }

    /// Captures (all or part) or voids a payment from its page: the API's rules (``PaymentService``), admins only,
    /// and a form submitted twice changes the payment once.
    func change(
        _ session: ConsoleSession, id: String, form: [String: String], to change: PaymentChange
    ) async throws -> Response {
        guard session.user.isAdmin else {
            return try await paymentPage(
                session, id: id, problem: "Only admins capture or void payments.", status: .forbidden)
        }
        let payment: Payment
        do {
            payment = try await payments.payment(id, caller: caller(session))
        } catch {
            return try await paymentPage(session, id: id)
        }
        var amount: Int?
        if change == .capture, let text = form["amount"], !text.isEmpty {
            guard let parsed = ConsoleMoney.parse(text, payment.currency), parsed > 0 else {
                return try await paymentPage(
                    session, id: id, problem: "The amount is not a positive amount in \(payment.currency).",
                    status: .badRequest)
            }
            amount = parsed
        }
        guard let submission = form["submission"], (32...64).contains(submission.count),
            try await claimSubmission(submission, merchantId: session.user.merchantId)
        else { return ConsolePages.redirect("/console/payments/\(id)") }
        do {
            switch change {
            case .capture:
                let captured = try await payments.capture(id, amount: amount, caller: caller(session))
                return try await paymentPage(
                    session, id: id,
                    notice: "Captured \(ConsoleMoney.format(captured.capturedAmount, captured.currency)).")
            case .void:
                _ = try await payments.void(id, caller: caller(session))
                return try await paymentPage(session, id: id, notice: "Voided: the authorization is released.")
            }
        } catch let error as GatewayAPIError {
            return try await paymentPage(session, id: id, problem: error.message, status: .badRequest)
        }
    }

    /// Records a form's submission token; false when it was submitted before. Tokens older than a day are dropped.
    func claimSubmission(_ token: String, merchantId: String) async throws -> Bool {
        let now = clock()
        try await database.query(
            "DELETE FROM console_submissions WHERE created_at < $1", [.integer(now.addingTimeInterval(-86_400).millis)])
        do {
            try await database.query(
                "INSERT INTO console_submissions (merchant_id, token, created_at) VALUES ($1, $2, $3)",
                [.text(merchantId), .text(token), .integer(now.millis)])
            return true
        } catch StorageError.uniqueViolation {
            return false
        }
    }

    func refundLimit(merchantId: String) async throws -> Int? {
        try await database.query("SELECT staff_refund_limit FROM merchants WHERE id = $1", [.text(merchantId)])
            .first?.optionalInteger("staff_refund_limit")
    }

    func setRefundLimit(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard session.user.isAdmin else { return forbiddenPage(session, "Only admins set the staff refund limit.") }
        let merchant = try await merchant(session)
        let text = (form["limit"] ?? "").trimmingCharacters(in: .whitespaces)
        let limit = text.isEmpty ? nil : ConsoleMoney.parse(text, merchant.currency.alphabeticCode)
        if !text.isEmpty && limit == nil {
            return try await team(
                session, problem: "The limit is not an amount in \(merchant.currency.alphabeticCode).")
        }
        let now = clock()
        try await database.transaction { executor in
            try await executor.query(
                "UPDATE merchants SET staff_refund_limit = $1 WHERE id = $2", [.integer(limit), .text(merchant.id)])
            try await AuditLog.record(
                on: executor, at: now, actor: session.user.id, entity: "merchant", id: merchant.id,
                action: "staffRefundLimitSet", detail: limit.map { "\($0)" } ?? "none")
        }
        return ConsolePages.redirect("/console/team")
    }

    func forbiddenPage(_ session: ConsoleSession, _ text: String) -> Response {
        pages.page(
            "message", layout(session, current: "").merging(["heading": "Not allowed", "text": text]) { $1 },
            status: .forbidden)
    }

    // MARK: - Tap to Pay

    func tapToPay(_ session: ConsoleSession, status: HTTPResponse.Status = .ok) async throws -> Response {
        let merchant = try await merchant(session)
        let team = try await accounts.team(merchantId: merchant.id)
        let devices = try await database.query(
            """
            SELECT d.id, d.terminal_id, d.provisioned_at, u.last_used_at FROM merchant_devices d
            LEFT JOIN device_merchant_uses u ON u.device_id = d.id AND u.merchant_id = d.merchant_id
            WHERE d.merchant_id = $1 ORDER BY COALESCE(u.last_used_at, d.provisioned_at) DESC
            """, [.text(merchant.id)])
        var deviceRows: [[String: Any]] = []
        for row in devices where !(try row.text("id")).hasPrefix("ecom_") {
            let last = try row.optionalInteger("last_used_at") ?? row.integer("provisioned_at")
            deviceRows.append([
                "id": try row.text("id"), "terminalId": try row.text("terminal_id"),
                "prepared": Self.format(Date(millis: last)),
            ])
        }
        let acceptedBy = merchant.termsAcceptedBy.flatMap { id in team.first { $0.id == id }?.email }
        let context = layout(session, current: "/console/tap-to-pay").merging([
            "accepted": merchant.isAccountLinked,
            "acceptedAt": merchant.termsAcceptedAt.map(Self.format) ?? "",
            "acceptedBy": acceptedBy ?? merchant.termsAcceptedBy ?? "an admin",
            "version": termsVersion, "paragraphs": ConsoleTerms.paragraphs, "isAdmin": session.user.isAdmin,
            "admins": team.filter { $0.isAdmin && $0.deactivatedAt == nil }.map(\.email).joined(separator: " or "),
            "devices": deviceRows, "deviceLimit": DeviceMerchantLimit.standard.maximumMerchants,
        ]) { $1 }
        return pages.page("tap-to-pay", context, status: status)
    }

    /// An admin accepts the terms on the web: the same rule and record as a link from the SDK.
    func acceptTerms(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard session.user.isAdmin else {
            return forbiddenPage(session, "Only an admin of this account can accept the Terms and Conditions.")
        }
        guard form["version"] == termsVersion else {
            return try await tapToPay(session, status: .conflict)
        }
        do {
            _ = try await merchants.link(
                by: caller(session), deviceId: "console", relink: false, termsVersion: termsVersion, now: clock())
        } catch let error as GatewayAPIError where error.code == .accountAlreadyLinked {
            // Accepted already (another admin, or this form twice): nothing to do.
        }
        return ConsolePages.redirect("/console/tap-to-pay")
    }

    // MARK: - Team

    func team(
        _ session: ConsoleSession, problem: String? = nil, invitationLink: String? = nil
    ) async throws -> Response {
        let merchant = try await merchant(session)
        let limit = try await refundLimit(merchantId: merchant.id)
        let currency = merchant.currency.alphabeticCode
        let limitText = limit.map { ConsoleMoney.format($0, currency) }
        var users: [[String: Any]] = []
        for user in try await accounts.team(merchantId: merchant.id) {
            let state = user.deactivatedAt != nil ? "deactivated" : user.hasPassword ? "active" : "invited"
            users.append([
                "id": user.id, "email": user.email, "role": user.role.rawValue, "state": state,
                "canDeactivate": user.deactivatedAt == nil && user.id != session.user.id,
                "isAdmin": session.user.isAdmin, "csrf": session.csrfToken,
            ])
        }
        var context = layout(session, current: "/console/team")
        context["isAdmin"] = session.user.isAdmin
        context["currency"] = currency
        context["refundLimit"] = limit.map { ConsoleMoney.amountText($0, currency) } ?? ""
        context["refundLimitText"] = limitText ?? "nothing (no limit set)"
        context["users"] = users
        if let problem { context["problem"] = problem }
        if let invitationLink { context["invitationLink"] = invitationLink }
        return pages.page("team", context, status: problem == nil ? .ok : .badRequest)
    }

    func invite(_ session: ConsoleSession, form: [String: String], request: Request) async throws -> Response {
        guard session.user.isAdmin else { return forbiddenPage(session, "Only admins invite users.") }
        guard let role = MerchantUser.Role(rawValue: form["role"] ?? "") else {
            return try await team(session, problem: "The role is admin or staff.")
        }
        let link: String
        do {
            let user = try await MerchantUserRepository(database: database).add(
                merchantId: session.user.merchantId, email: form["email"] ?? "", role: role, actor: session.user.id,
                now: clock())
            let token = try await accounts.invite(userId: user.id, actor: session.user.id, now: clock())
            link =
                "\(secureCookies ? "https" : "http")://\(request.head.authority ?? "localhost")/console/invitations/\(token)"
        } catch let error as DomainError {
            return try await team(session, problem: error.message)
        }
        return try await team(session, invitationLink: link)
    }
}
