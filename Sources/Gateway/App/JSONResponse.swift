import Foundation
import GatewayAPI
public import Hummingbird
import HTTPTypes

/// A response with a JSON body in the API's encoding and a chosen status.
public struct JSONResponse<Body: Encodable & Sendable>: ResponseGenerator {
    /// The status.
    public var status: HTTPResponse.Status
    /// The body.
    public var body: Body

    /// Creates a response.
    public init(_ body: Body, status: HTTPResponse.Status = .ok) {
        self.status = status
        self.body = body
    }

    /// The encoded bytes of the body.
    public func encoded() throws -> Data {
        return try JSONEncoder.gatewayAPI.encode(body)
    }

    /// Encodes the body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.response(status: status, body: try encoded())
    }

    /// A JSON response with these status and body bytes (also how a stored idempotent response is replayed).
    static func response(status: HTTPResponse.Status, body: Data) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .contentLength: "\(body.count)"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
