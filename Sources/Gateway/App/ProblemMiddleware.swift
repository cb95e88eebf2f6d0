import Foundation
import GatewayAPI
public import Hummingbird
import HTTPTypes
import Logging
import NIOCore
public import _SQLStorage

/// Turns every error a route throws into a JSON problem with a stable code (``Problem``): the API's own errors as
/// they are, Hummingbird's HTTP errors by status, anything else as ``GatewayAPIError/Code/internalError`` with a
/// fixed message (an unexpected error's text could quote card data, so only its type is logged).
public struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Runs the rest of the chain and maps its errors.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GatewayAPIError {
            return Self.response(error)
        } catch let error as HTTPError {
            return Self.response(Self.apiError(error))
        } catch is NIOTooManyBytesError {
            // A streamed body grew past the limit while a route read it.
            return Self.response(RequestBodyLimit.error(limit: context.maxUploadSize))
        } catch let error as StorageError where [.connectionFailed, .transactionConflict].contains(error.code) {
            // Nothing was committed: the caller may retry (with the same Idempotency-Key).
            context.logger.warning("storage unavailable", metadata: ["code": "\(error.code)"])
            return Self.response(GatewayAPIError(code: .unavailable, message: "the gateway's database is unavailable"))
        } catch {
            context.logger.error("unexpected error", metadata: ["type": "\(type(of: error))"])
            return Self.response(GatewayAPIError(code: .internalError, message: "an unexpected error occurred"))
        }
    }

    /// The problem response for `error`.
    public static func response(_ error: GatewayAPIError) -> Response {
        let body = self.body(error)
        return Response(
            status: HTTPResponse.Status(code: error.code.httpStatus),
            headers: [.contentType: Problem.mediaType, .contentLength: "\(body.count)"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The bytes of `error`'s problem: what ``response(_:)`` answers with, and what a request that stores its answer
    /// itself stores.
    static func body(_ error: GatewayAPIError) -> [UInt8] {
        (try? Array(JSONEncoder.gatewayAPI.encode(Problem(error)))) ?? []
    }

    private static func apiError(_ error: HTTPError) -> GatewayAPIError {
        switch error.status.code {
        case 401: GatewayAPIError(code: .unauthorized, message: "credentials are missing or not valid")
        case 404: GatewayAPIError(code: .notFound, message: "no such resource")
        case 400..<500:
            GatewayAPIError(code: .invalidRequest, message: "the request is not valid (HTTP \(error.status.code))")
        default: GatewayAPIError(code: .internalError, message: "an unexpected error occurred")
        }
    }
}
