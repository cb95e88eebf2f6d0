import GatewayAPI
public import Hummingbird
import NIOCore

/// Holds every request body to ``limit`` bytes: a request that declares a longer body is answered 413
/// ``GatewayAPIError/Code/payloadTooLarge`` before any route runs, and a streamed body that grows past the limit
/// fails its route's read with the same problem (``ProblemMiddleware`` maps NIO's `NIOTooManyBytesError`).
public struct RequestBodyLimit: RouterMiddleware {
    /// The largest body accepted, in bytes.
    public let limit: Int

    /// Creates the middleware.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Refuses a declared body over the limit; sets the limit for the routes' reads.
    public func handle(
        _ request: Request, context: GatewayRequestContext,
        next: (Request, GatewayRequestContext) async throws -> Response
    ) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw Self.error(limit: limit)
        }
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }

    /// The problem for a body over `limit` bytes.
    static func error(limit: Int) -> GatewayAPIError {
        GatewayAPIError(code: .payloadTooLarge, message: "the request body is larger than \(limit) bytes")
    }
}
