public import Foundation

/// How the reader talks to the PSP's HTTP API: one request, one response whose body arrives in chunks (the prepare
/// answer is a stream of progress lines).
///
/// ``HTTPGatewayTransport`` is the real one (AsyncHTTPClient); tests can put anything behind this protocol.
public protocol GatewayTransport: Sendable {
    /// Sends `request` and returns the status and the body as it arrives.
    /// - Throws: when no response arrives (the reader reports a network error).
    func send(_ request: GatewayRequest) async throws -> GatewayResponse
}

/// A request to the PSP's API.
public struct GatewayRequest: Sendable, Hashable, CustomStringConvertible {
    /// `GET` or `POST`.
    public enum Method: String, Sendable, Hashable {
        /// GET.
        case get = "GET"
        /// POST.
        case post = "POST"
    }

    /// The method.
    public var method: Method
    /// The path with its query, e.g. `/v1/account-links?deviceId=…`.
    public var path: String
    /// The bearer credential (a reader token).
    public var bearer: String
    /// The JSON body.
    public var body: Data?

    /// Creates a request.
    public init(method: Method, path: String, bearer: String, body: Data? = nil) {
        self.method = method
        self.path = path
        self.bearer = bearer
        self.body = body
    }

    /// Method and path only: the credential is a secret.
    public var description: String { "\(method.rawValue) \(path)" }
}

/// A response of the PSP's API.
public struct GatewayResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The body's chunks as they arrive.
    public var body: AsyncThrowingStream<Data, any Error>

    /// Creates a response.
    public init(status: Int, body: AsyncThrowingStream<Data, any Error>) {
        self.status = status
        self.body = body
    }

    /// A response with the whole body at once.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = AsyncThrowingStream { continuation in
            continuation.yield(body)
            continuation.finish()
        }
    }

    /// The whole body, up to `limit` bytes.
    public func collect(upTo limit: Int = 1 << 20) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(chunk)
            guard data.count <= limit else { throw CancellationError() }
        }
        return data
    }
}
