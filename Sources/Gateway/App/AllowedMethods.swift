import Foundation
import GatewayAPI
public import Hummingbird
import HTTPTypes

/// Answers a request whose path the API serves, with a method it does not, as 405
/// ``GatewayAPIError/Code/methodNotAllowed`` with an `Allow` header listing the methods that path takes (RFC 9110
/// 15.5.6); a path the API does not serve stays 404.
///
/// The router finds no route for either and throws the same 404, so this middleware learns the routes once they are
/// all added (``load(_:)``).
public struct AllowedMethods: RouterMiddleware {
    public typealias Context = GatewayRequestContext

    /// The routes, once loaded.
    private let table = Table()

    /// Creates the middleware; call ``load(_:)`` with the router's routes before serving.
    public init() {}

    /// Takes the router's routes (`Router.routes`).
    public func load(_ routes: [Router<GatewayRequestContext>.RouteDescription]) {
        table.set(
            routes.map { route in
                (segments: Self.segments("\(route.path)"), method: route.method)
            })
    }

    /// Passes the request on; a 404 for a served path with another method becomes the 405.
    public func handle(
        _ request: Request, context: GatewayRequestContext,
        next: (Request, GatewayRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let methods = table.methods(matching: Self.segments(request.uri.path))
            guard !methods.isEmpty else { throw error }
            var response = ProblemMiddleware<GatewayRequestContext>.response(
                GatewayAPIError(
                    code: .methodNotAllowed, message: "\(request.method) is not served at this path"))
            response.headers[HTTPField.Name("Allow")!] = methods.joined(separator: ", ")
            return response
        }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The routes as path segments and methods, set once.
    private final class Table: @unchecked Sendable {
        private let lock = NSLock()
        private var routes: [(segments: [Substring], method: HTTPRequest.Method)] = []

        func set(_ routes: [(segments: [Substring], method: HTTPRequest.Method)]) {
            lock.withLock { self.routes = routes }
        }

        /// The methods of the routes whose pattern (`{name}` matches any segment) matches `path`, sorted.
        func methods(matching path: [Substring]) -> [String] {
            let routes = lock.withLock { self.routes }
            let matching = routes.filter { route in
                route.segments.count == path.count
                    && zip(route.segments, path).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }
            return Set(matching.map(\.method.rawValue)).sorted()
        }
    }
}
