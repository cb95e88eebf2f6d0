import ContactlessTesting
import Crypto
import EMV
import Foundation
@testable import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Issuer
import Testing
import TestMode

/// The merchant console against a live gateway on SQLite and PostgreSQL: invitations, sign-in, sessions, CSRF,
/// throttling, the terms, refunds with the API's rules; nothing secret in pages or logs.
@Suite("Console", .serialized)
struct ConsoleTests {
    static let password = "correct-horse-battery-staple"

    /// A user of the live gateway's merchant (or `merchantId`) with a password set through an invitation.
    static func user(
        _ gateway: LiveGateway, email: String, role: MerchantUser.Role, merchantId: String? = nil
    ) async throws -> ConsoleUser {
        let user = try await MerchantUserRepository(database: gateway.application.database).add(
            merchantId: merchantId ?? gateway.merchantId, email: email, role: role, actor: "test",
            now: gateway.clock.now)
        let accounts = ConsoleAccounts(database: gateway.application.database, bcryptCost: 4)
        let token = try await accounts.invite(userId: user.id, actor: "test", now: gateway.clock.now)
        let browser = ConsoleBrowser(gateway.client)
        let set = try await browser.submit(
            on: "/console/invitations/\(token)", to: "/console/invitations/\(token)", ["password": password])
        #expect(set.status == .ok, "\(set.text)")
        #expect(set.text.contains("Password set"))
        // An invitation works once.
        #expect(try await browser.get("/console/invitations/\(token)").status == .notFound)
        return try #require(try await accounts.team(merchantId: user.merchantId).first { $0.id == user.id })
    }

    static func signIn(_ gateway: LiveGateway, email: String, password: String = password) async throws
        -> (ConsoleBrowser, TestResponse)
    {
        let browser = ConsoleBrowser(gateway.client)
        let response = try await browser.submit(
            on: "/console/sign-in", to: "/console/sign-in", ["email": email, "password": password])
        return (browser, response)
    }

    @Test(arguments: TestDatabases.kinds)
    func invitationSignInPagesAndSignOut(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            _ = try await Self.user(gateway, email: "Admin@Shop.example", role: .admin)
            let (browser, signedIn) = try await Self.signIn(gateway, email: "admin@shop.example")
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.location == "/console")
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("console_session=") })
            #expect(
                cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/;"))
            for path in ["/console", "/console/payments", "/console/tap-to-pay", "/console/team"] {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path): \(page.status)")
                #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
                #expect(page.text.contains("admin@shop.example"))
            }
            let signedOut = try await browser.submit(on: "/console", to: "/console/sign-out", [:])
            #expect(signedOut.location == "/console/sign-in")
            #expect(try await browser.get("/console").location == "/console/sign-in")
            // Nothing secret reached the logs.
            #expect(!gateway.logs.text.contains(Self.password))
        }
    }

    @Test func wrongPasswordsAreThrottledPerAccountAndAddress() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            _ = try await Self.user(gateway, email: "staff@shop.example", role: .staff)
            for _ in 0..<ConsoleAccounts.maximumFailures {
                let (_, wrong) = try await Self.signIn(
                    gateway, email: "staff@shop.example", password: "wrong-password-1")
                #expect(wrong.status == .unauthorized)
                #expect(wrong.text.contains("The email or password is wrong."))
            }
            // The right password too is refused until the window ends.
            let (_, throttled) = try await Self.signIn(gateway, email: "staff@shop.example")
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.text.contains("Too many failed attempts"))
            // Unknown emails from this address are throttled as well (per address).
            let (_, other) = try await Self.signIn(gateway, email: "nobody@shop.example")
            #expect(other.status == .tooManyRequests)
            gateway.clock.advance(by: ConsoleAccounts.throttleWindow + 1)
            let (_, later) = try await Self.signIn(gateway, email: "staff@shop.example")
            #expect(later.status == .seeOther)
        }
    }

    @Test func sessionsEndWhenIdleOrDeactivated() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            let admin = try await Self.user(gateway, email: "admin@shop.example", role: .admin)
            let staff = try await Self.user(gateway, email: "staff@shop.example", role: .staff)
            let (browser, _) = try await Self.signIn(gateway, email: staff.email)
            #expect(try await browser.get("/console").status == .ok)
            gateway.clock.advance(by: ConsoleAccounts.defaultIdleTimeout + 1)
            #expect(try await browser.get("/console").location == "/console/sign-in")

            let (again, _) = try await Self.signIn(gateway, email: staff.email)
            let (adminBrowser, _) = try await Self.signIn(gateway, email: admin.email)
            let deactivated = try await adminBrowser.submit(
                on: "/console/team", to: "/console/team/\(staff.id)/deactivate", [:])
            #expect(deactivated.location == "/console/team")
            #expect(try await again.get("/console").location == "/console/sign-in")
            let (_, refused) = try await Self.signIn(gateway, email: staff.email)
            #expect(refused.status == .unauthorized)
        }
    }

    @Test func formsWithoutTheTokenOrFromAnotherOriginAreRefused() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            let admin = try await Self.user(gateway, email: "admin@shop.example", role: .admin)
            let (browser, _) = try await Self.signIn(gateway, email: admin.email)
            let page = try await browser.get("/console/team")
            let csrf = try #require(ConsoleBrowser.value(of: "_csrf", in: page.text))
            let missing = try await browser.post(
                "/console/team/invitations", ["email": "x@shop.example", "role": "staff"])
            #expect(missing.status == .forbidden)
            let wrong = try await browser.post(
                "/console/team/invitations",
                ["_csrf": String(csrf.reversed()), "email": "x@shop.example", "role": "staff"])
            #expect(wrong.status == .forbidden)
            let crossSite = try await browser.post(
                "/console/team/invitations", ["_csrf": csrf, "email": "x@shop.example", "role": "staff"],
                origin: "https://evil.example")
            #expect(crossSite.status == .forbidden)
            #expect(
                try await ConsoleAccounts(database: gateway.application.database).team(merchantId: gateway.merchantId)
                    .contains { $0.email == "x@shop.example" } == false)
            // Sign-in without the form cookie's token.
            let bare = ConsoleBrowser(gateway.client)
            let noToken = try await bare.post("/console/sign-in", ["email": admin.email, "password": Self.password])
            #expect(noToken.status == .forbidden)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func termsOnTheWebLinkEveryDeviceAndStaffAreToldWhy(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let merchant = try await MerchantRepository(database: gateway.application.database).create(
                name: "New Shop", country: .deu, currency: .eur, categoryCode: "5411", actor: "test",
                now: gateway.clock.now)
            let staff = try await Self.user(gateway, email: "staff@new.example", role: .staff, merchantId: merchant.id)
            let admin = try await Self.user(gateway, email: "admin@new.example", role: .admin, merchantId: merchant.id)
            let (staffBrowser, _) = try await Self.signIn(gateway, email: staff.email)
            let staffPage = try await staffBrowser.get("/console/tap-to-pay")
            #expect(
                staffPage.text.contains(
                    "Only an admin of this account can accept the Terms and Conditions. Ask admin@new.example."))
            #expect(!staffPage.text.contains("Accept the Terms and Conditions</button>"))
            let refused = try await staffBrowser.post(
                "/console/tap-to-pay/terms",
                ["_csrf": ConsoleBrowser.value(of: "_csrf", in: staffPage.text) ?? "", "version": ConsoleTerms.current])
            #expect(refused.status == .forbidden)

            let (adminBrowser, _) = try await Self.signIn(gateway, email: admin.email)
            let accepted = try await adminBrowser.submit(
                on: "/console/tap-to-pay", to: "/console/tap-to-pay/terms", ["version": ConsoleTerms.current])
            #expect(accepted.location == "/console/tap-to-pay")
            let page = try await adminBrowser.get("/console/tap-to-pay")
            #expect(page.text.contains("by admin@new.example (version \(ConsoleTerms.current))"))
            let stored = try #require(
                try await MerchantRepository(database: gateway.application.database).merchant(id: merchant.id))
            #expect(stored.isAccountLinked && stored.termsAcceptedBy == admin.id)
            let audit = try await AuditLog.entries(
                on: gateway.application.database, entity: "merchant", entityId: merchant.id)
            #expect(audit.contains { $0.action == "termsAccepted" && $0.detail.contains("in the console") })
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func refundsFollowTheAPIsRulesOnceAndStaffWithinTheLimit(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let tapper = try gateway.tapper(try #require(TestCards.card(.approve, .visa)))
            let paid = try await gateway.pay(tapper, minorUnits: 2_500).decoded(Payment.self)
            #expect(paid.status == .succeeded)
            let admin = try await Self.user(gateway, email: "admin@shop.example", role: .admin)
            let staff = try await Self.user(gateway, email: "staff@shop.example", role: .staff)

            let (adminBrowser, _) = try await Self.signIn(gateway, email: admin.email)
            let list = try await adminBrowser.get("/console/payments?status=succeeded&card=\(paid.card?.last4 ?? "")")
            #expect(list.text.contains("/console/payments/\(paid.id)"))
            #expect(list.text.contains("25.00 EUR"))
            #expect(!list.text.contains(try #require(TestCards.card(.approve, .visa)).pan))
            let page = try await adminBrowser.get("/console/payments/\(paid.id)")
            #expect(page.text.contains("<strong>created</strong>"))
            let fields = [
                "_csrf": ConsoleBrowser.value(of: "_csrf", in: page.text) ?? "",
                "submission": ConsoleBrowser.value(of: "submission", in: page.text) ?? "", "amount": "10.00",
            ]
            let first = try await adminBrowser.post("/console/payments/\(paid.id)/refunds", fields)
            #expect(first.text.contains("Refunded 10.00 EUR"))
            let second = try await adminBrowser.post("/console/payments/\(paid.id)/refunds", fields)
            #expect(second.location == "/console/payments/\(paid.id)")
            #expect(try await gateway.get("/v1/payments/\(paid.id)").decoded(Payment.self).refundedAmount == 1_000)
            // The API's rules: not more than remains.
            let tooMuch = try await adminBrowser.submit(
                on: "/console/payments/\(paid.id)", to: "/console/payments/\(paid.id)/refunds",
                ["amount": "16.00", "submission": ConsoleAccounts.randomToken()])
            #expect(tooMuch.status == .badRequest)
            #expect(tooMuch.text.contains("more than remains to refund"))

            // Staff: refused without a limit, allowed within it.
            let (staffBrowser, _) = try await Self.signIn(gateway, email: staff.email)
            let refused = try await staffBrowser.submit(
                on: "/console/payments/\(paid.id)", to: "/console/payments/\(paid.id)/refunds",
                ["amount": "1.00", "submission": ConsoleAccounts.randomToken()])
            #expect(refused.status == .forbidden)
            // The limit caps a payment's refunds in all (the admin's 10.00 count too).
            _ = try await adminBrowser.submit(on: "/console/team", to: "/console/team/refund-limit", ["limit": "15.00"])
            let within = try await staffBrowser.submit(
                on: "/console/payments/\(paid.id)", to: "/console/payments/\(paid.id)/refunds",
                ["amount": "5.00", "submission": ConsoleAccounts.randomToken()])
            #expect(within.text.contains("Refunded 5.00 EUR"))
            let over = try await staffBrowser.submit(
                on: "/console/payments/\(paid.id)", to: "/console/payments/\(paid.id)/refunds",
                ["amount": "0.01", "submission": ConsoleAccounts.randomToken()])
            #expect(over.status == .forbidden)
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func adminsCaptureAndVoidOnceAndTheTimelineTellsTheRead(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let tapper = try gateway.tapper(try #require(TestCards.card(.approve, .visa)))
            let toCapture = try await gateway.pay(tapper, minorUnits: 3_000, captureMethod: .manual)
                .decoded(Payment.self)
            let toVoid = try await gateway.pay(tapper, minorUnits: 1_500, captureMethod: .manual).decoded(Payment.self)
            #expect(toCapture.status == .requiresCapture && toVoid.status == .requiresCapture)
            let admin = try await Self.user(gateway, email: "admin@shop.example", role: .admin)
            let staff = try await Self.user(gateway, email: "staff@shop.example", role: .staff)

            // Staff see why they cannot; their forms are refused.
            let (staffBrowser, _) = try await Self.signIn(gateway, email: staff.email)
            let staffPage = try await staffBrowser.get("/console/payments/\(toCapture.id)")
            #expect(staffPage.text.contains("an admin captures or voids it"))
            #expect(!staffPage.text.contains("/capture\""))
            let refused = try await staffBrowser.post(
                "/console/payments/\(toCapture.id)/capture",
                [
                    "_csrf": ConsoleBrowser.value(of: "_csrf", in: staffPage.text) ?? "",
                    "submission": ConsoleAccounts.randomToken(),
                ])
            #expect(refused.status == .forbidden)

            let (browser, _) = try await Self.signIn(gateway, email: admin.email)
            let page = try await browser.get("/console/payments/\(toCapture.id)")
            // The timeline tells the cryptogram, the CVM and the issuer's verification, never the card data.
            #expect(page.text.contains("ARQC; CVM: "))
            #expect(page.text.contains("ARQC verified by the issuer"))
            #expect(!page.text.contains(try #require(TestCards.card(.approve, .visa)).pan))
            // A partial capture, submitted twice, captures once; the API's rules hold (no second capture).
            let fields = [
                "_csrf": ConsoleBrowser.value(of: "_csrf", in: page.text) ?? "",
                "submission": ConsoleBrowser.value(of: "submission", in: page.text) ?? "", "amount": "20.00",
            ]
            let captured = try await browser.post("/console/payments/\(toCapture.id)/capture", fields)
            #expect(captured.text.contains("Captured 20.00 EUR"), "\(captured.text)")
            let again = try await browser.post("/console/payments/\(toCapture.id)/capture", fields)
            #expect(again.location == "/console/payments/\(toCapture.id)")
            let stored = try await gateway.get("/v1/payments/\(toCapture.id)").decoded(Payment.self)
            #expect(stored.status == .succeeded && stored.capturedAmount == 2_000)
            let late = try await browser.submit(
                on: "/console/payments/\(toCapture.id)", to: "/console/payments/\(toCapture.id)/void",
                ["submission": ConsoleAccounts.randomToken()])
            #expect(late.status == .badRequest)
            #expect(late.text.contains("only an uncaptured payment is voided"))

            let voided = try await browser.submit(
                on: "/console/payments/\(toVoid.id)", to: "/console/payments/\(toVoid.id)/void",
                ["submission": ConsoleAccounts.randomToken()])
            #expect(voided.text.contains("Voided"))
            #expect(try await gateway.get("/v1/payments/\(toVoid.id)").decoded(Payment.self).status == .canceled)

            // Who and from where: the console's changes carry the client's address.
            let audit = try await AuditLog.entries(
                on: gateway.application.database, entity: "payment", entityId: toCapture.id)
            let capture = try #require(audit.first { $0.action == "captured" })
            #expect(capture.actor == "user:\(admin.id)")
            #expect(capture.address == "127.0.0.1")
        }
    }

    @Test func apiKeysAreShownOnceUsedAndRevoked() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            let admin = try await Self.user(gateway, email: "admin@shop.example", role: .admin)
            let staff = try await Self.user(gateway, email: "staff@shop.example", role: .staff)
            let (browser, _) = try await Self.signIn(gateway, email: admin.email)
            let created = try await browser.submit(
                on: "/console/developers", to: "/console/developers/keys", ["name": "checkout server"])
            let secret = try #require(created.text.firstMatch(of: /sk_[A-Za-z0-9_-]+/).map { String($0.output) })
            #expect(!(try await browser.get("/console/developers").text.contains(secret)))
            #expect(!gateway.logs.text.contains(secret))
            // The key works, and the console shows when it was last used.
            #expect(try await gateway.get("/v1/payments", bearer: secret).status == .ok)
            let listed = try await browser.get("/console/developers")
            #expect(listed.text.contains("checkout server"))
            #expect(
                !listed.text.contains("<td>never</td>")
                    || listed.text.components(separatedBy: "<td>never</td>").count == 2)
            let id = try #require(
                listed.text.firstMatch(of: /keys\/(key_[a-z0-9]+)\/revoke/).map { String($0.output.1) })
            let keys = try await APIKeyRepository(database: gateway.application.database).keys(
                merchantId: gateway.merchantId)
            #expect(keys.first { $0.id == id }?.lastUsedAt != nil)

            let (staffBrowser, _) = try await Self.signIn(gateway, email: staff.email)
            let refused = try await staffBrowser.submit(
                on: "/console/developers", to: "/console/developers/keys", ["name": "mine"])
            #expect(refused.status == .forbidden)
            let staffRevoke = try await staffBrowser.submit(
                on: "/console/developers", to: "/console/developers/keys/\(id)/revoke", [:])
            #expect(staffRevoke.status == .forbidden)

            let revoked = try await browser.submit(
                on: "/console/developers", to: "/console/developers/keys/\(id)/revoke", [:])
            #expect(revoked.location == "/console/developers")
            #expect(try await gateway.get("/v1/payments", bearer: secret).status == .unauthorized)
        }
    }

    @Test func theAuditLogShowsThisAccountOnlyAndOnlyToAdmins() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            let admin = try await Self.user(gateway, email: "admin@shop.example", role: .admin)
            let staff = try await Self.user(gateway, email: "staff@shop.example", role: .staff)
            let other = try await MerchantRepository(database: gateway.application.database).create(
                name: "Other Shop", country: .deu, currency: .eur, categoryCode: "5411", actor: "test",
                now: gateway.clock.now)
            _ = try await Self.user(gateway, email: "someone@other.example", role: .admin, merchantId: other.id)
            let (browser, _) = try await Self.signIn(gateway, email: admin.email)
            let page = try await browser.get("/console/audit")
            #expect(page.status == .ok)
            #expect(page.text.contains("<td>signedIn</td>") && page.text.contains("<td>admin@shop.example</td>"))
            #expect(page.text.contains("<td>passwordSet</td>"))
            // Sign-ins say where they came from.
            #expect(page.text.contains("<td class=\"mono\">127.0.0.1</td>"))
            #expect(!page.text.contains("someone@other.example") && !page.text.contains(other.id))
            let (staffBrowser, _) = try await Self.signIn(gateway, email: staff.email)
            #expect(try await staffBrowser.get("/console/audit").status == .forbidden)
        }
    }

    @Test func applePayCertificatesAreAddedByAdminsWithTheirExpiry() async throws {
        try await LiveGateway.with(.sqlite) { gateway in
            let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("ApplePayTests/Fixtures/gala-2021")
            let certificate = try String(
                contentsOf: fixtures.appendingPathComponent("certificate.pem"), encoding: .utf8)
            let key = try String(contentsOf: fixtures.appendingPathComponent("private_key.pem"), encoding: .utf8)
            let admin = try await Self.user(gateway, email: "admin@shop.example", role: .admin)
            let staff = try await Self.user(gateway, email: "staff@shop.example", role: .staff)
            let (staffBrowser, _) = try await Self.signIn(gateway, email: staff.email)
            let refused = try await staffBrowser.submit(
                on: "/console/apple-pay", to: "/console/apple-pay", ["certificate": certificate, "key": key])
            #expect(refused.status == .forbidden)

            let (browser, _) = try await Self.signIn(gateway, email: admin.email)
            let mismatched = try await browser.submit(
                on: "/console/apple-pay", to: "/console/apple-pay",
                ["certificate": certificate, "key": P256KeyPEM.fresh])
            #expect(mismatched.status == .badRequest)
            #expect(mismatched.text.contains("they must be PEM"))
            let added = try await browser.submit(
                on: "/console/apple-pay", to: "/console/apple-pay", ["certificate": certificate, "key": key])
            #expect(added.status == .ok)
            #expect(added.text.contains("Added certificate apc_"))
            // gala's certificate ran out in 2021: the page says so.
            #expect(added.text.contains("expired on"))
            let keyBody = key.split(separator: "\n").dropFirst().first.map(String.init) ?? key
            #expect(!added.text.contains(keyBody) && !gateway.logs.text.contains(keyBody))
            #expect(
                try await ApplePayIdentityRepository(
                    database: gateway.application.database, keys: gateway.application.keys
                )
                .registrations(merchantId: gateway.merchantId).count == 1)
        }
    }

    @Test func amountsAreReadInTheCurrencysUnits() {
        #expect(ConsoleMoney.parse("12.34", "EUR") == 1_234)
        #expect(ConsoleMoney.parse("12", "EUR") == 1_200)
        #expect(ConsoleMoney.parse("12.3", "EUR") == 1_230)
        #expect(ConsoleMoney.parse("1200", "JPY") == 1_200)
        for bad in ["", "-1", "1.234", "1.", ".5", "1e3", "١٢", "12.34.5"] {
            #expect(ConsoleMoney.parse(bad, "EUR") == nil)
        }
        #expect(ConsoleMoney.format(1_234, "EUR") == "12.34 EUR")
        #expect(ConsoleMoney.format(5, "EUR") == "0.05 EUR")
        #expect(ConsoleMoney.format(1_200, "JPY") == "1200 JPY")
    }
}

/// A P-256 private key in PEM that belongs to no certificate.
enum P256KeyPEM {
    static var fresh: String { P256.Signing.PrivateKey().pemRepresentation }
}
