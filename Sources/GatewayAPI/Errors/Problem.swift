public import Foundation

/// An error response of the gateway's HTTP API: an RFC 9457 problem (`application/problem+json`) with a stable
/// ``code`` the SDKs switch on.
///
/// ```json
/// {"type": "https://contactless.dev/problems/merchantBlocked", "title": "merchantBlocked", "status": 403,
///  "code": "merchantBlocked", "detail": "…", "clearsAt": "2026-11-22T10:00:00Z"}
/// ```
public struct Problem: Sendable, Hashable, Codable {
    /// The media type of a problem body.
    public static let mediaType = "application/problem+json"

    /// A URI naming the problem's kind.
    public var type: String
    /// The code's name.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// The stable code (``GatewayAPIError/Code/description``).
    public var code: String
    /// What was wrong, for a developer; free of card data.
    public var detail: String
    /// For ``GatewayAPIError/Code/merchantBlocked``: when the device may use the merchant id.
    public var clearsAt: Date?

    /// The problem for `error`.
    public init(_ error: GatewayAPIError) {
        type = "https://contactless.dev/problems/\(error.code)"
        title = "\(error.code)"
        status = error.code.httpStatus
        code = "\(error.code)"
        detail = error.message
        clearsAt = error.clearsAt
    }

    /// The error this problem reports; ``GatewayAPIError/Code/internalError`` for a code this version does not know.
    public var error: GatewayAPIError {
        GatewayAPIError(
            code: GatewayAPIError.Code(name: code) ?? .internalError, message: detail, clearsAt: clearsAt)
    }
}
