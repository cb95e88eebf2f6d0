import Foundation
import Hummingbird

extension ConsoleController {
    /// Certificates expiring within this many days are warned of.
    static let certificateWarningDays = 30

    func applePay(_ session: ConsoleSession, problem: String? = nil, notice: String? = nil) async throws -> Response {
        let merchant = session.user.merchantId
        let registrations = try await applePayIdentities.registrations(merchantId: merchant)
        let expiries = try await applePayIdentities.expiries(merchantId: merchant)
        let now = clock()
        var warnings: [String] = []
        var certificates: [[String: Any]] = []
        for registration in registrations.reversed() {
            let expiry = expiries[registration.id]
            if let expiry {
                let days = Int(expiry.timeIntervalSince(now) / 86_400)
                if expiry <= now {
                    warnings.append("Certificate \(registration.id) expired on \(Self.format(expiry)).")
                } else if days < Self.certificateWarningDays {
                    warnings.append(
                        "Certificate \(registration.id) expires in \(days) day\(days == 1 ? "" : "s"), on "
                            + "\(Self.format(expiry)): add its successor.")
                }
            }
            certificates.append([
                "id": registration.id, "hash": registration.publicKeyHash,
                "created": Self.format(registration.createdAt),
                "expires": expiry.map(Self.format) ?? "unknown",
            ])
        }
        var context = layout(session, current: "/console/apple-pay")
        context["isAdmin"] = session.user.isAdmin
        context["certificates"] = certificates
        context["warnings"] = warnings
        if let problem { context["problem"] = problem }
        if let notice { context["notice"] = notice }
        return pages.page("apple-pay", context, status: problem == nil ? .ok : .badRequest)
    }

    /// An admin adds a certificate and its key: checked to match (as `tap merchant applepay` does), the key sealed.
    func addApplePayCertificate(_ session: ConsoleSession, form: [String: String]) async throws -> Response {
        guard session.user.isAdmin else { return forbiddenPage(session, "Only admins add Apple Pay certificates.") }
        do {
            let registration = try await applePayIdentities.register(
                merchantId: session.user.merchantId, certificatePEM: form["certificate"] ?? "",
                privateKeyPEM: form["key"] ?? "", actor: session.user.id, at: clock())
            return try await applePay(session, notice: "Added certificate \(registration.id).")
        } catch {
            // Never echo the key; say what to fix.
            return try await applePay(
                session,
                problem: "The certificate and key were not accepted: they must be PEM, and the key must be the "
                    + "certificate's.")
        }
    }
}
