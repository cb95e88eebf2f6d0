import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// The console's and the point of sale's templates and assets, compiled into the binary (SwiftPM `embedInCode`), and the HTTP answers built
/// from them: every page with a strict Content-Security-Policy (no inline script or style, nothing from elsewhere),
/// no caching, no framing.
struct ConsolePages: Sendable {
    private let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        let templates: [(String, [UInt8])] = [
            ("layout", PackageResources.layout_mustache), ("sign-in", PackageResources.sign_in_mustache),
            ("invitation", PackageResources.invitation_mustache), ("message", PackageResources.message_mustache),
            ("overview", PackageResources.overview_mustache), ("payments", PackageResources.payments_mustache),
            ("payment", PackageResources.payment_mustache), ("tap-to-pay", PackageResources.tap_to_pay_mustache),
            ("team", PackageResources.team_mustache), ("developers", PackageResources.developers_mustache),
            ("webhook", PackageResources.webhook_mustache), ("audit", PackageResources.audit_mustache),
            ("apple-pay", PackageResources.apple_pay_mustache),
            // The point of sale's (PointOfSale/Templates).
            ("pos-layout", PackageResources.pos_layout_mustache), ("pos-home", PackageResources.pos_home_mustache),
            ("pos-command", PackageResources.pos_command_mustache),
            ("pos-receipt", PackageResources.pos_receipt_mustache),
            ("pos-message", PackageResources.pos_message_mustache),
            ("pos-settings", PackageResources.pos_settings_mustache),
            ("pos-help", PackageResources.pos_help_mustache),
        ]
        for (name, bytes) in templates { try library.register(String(decoding: bytes, as: UTF8.self), named: name) }
        self.library = library
    }

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    /// The page `template` rendered with `context`.
    func page(_ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok, cookies: [String] = [])
        -> Response
    {
        let html = library.render(context, withTemplate: template) ?? ""
        var headers = Self.securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// A 303 to `location` (after a form), with cookies to set.
    static func redirect(_ location: String, cookies: [String] = []) -> Response {
        var headers = securityHeaders
        headers[.location] = location
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// An embedded asset, cacheable for an hour.
    static func asset(_ name: String) -> Response? {
        let (bytes, type): ([UInt8], String)
        switch name {
        case "console.css": (bytes, type) = (PackageResources.console_css, "text/css; charset=utf-8")
        case "console.js": (bytes, type) = (PackageResources.console_js, "text/javascript; charset=utf-8")
        case "pos.css": (bytes, type) = (PackageResources.pos_css, "text/css; charset=utf-8")
        case "pos.js": (bytes, type) = (PackageResources.pos_js, "text/javascript; charset=utf-8")
        default: return nil
        }
        var headers = securityHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: contentSecurityPolicy, HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "same-origin", HTTPField.Name("X-Frame-Options")!: "DENY",
        .cacheControl: "no-store",
    ]
}
