import EMV
import Foundation
import GatewayAPI
public import Hummingbird
import HummingbirdCore

/// The per-request context: Hummingbird's core storage plus the authenticated caller, and the API's JSON coding
/// (decoding errors become ``GatewayAPIError/Code/invalidRequest`` naming the field, never its value).
public struct GatewayRequestContext: RequestContext {
    /// Hummingbird's storage.
    public var coreContext: CoreRequestContextStorage
    /// The caller, once an authenticating middleware or route has resolved the credentials.
    public var caller: Caller?

    /// The client's IP address, as the connection shows it (the console's login throttle counts failures by it).
    public var remoteAddress: String?

    /// Creates the context of a request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The largest request body read, in bytes: ``GatewayConfiguration/maxRequestBodySize`` once
    /// ``RequestBodyLimit`` has run, 64 KiB before.
    public var maxUploadSize: Int = GatewayConfiguration.defaultMaxRequestBodySize

    /// The path parameter `name`, percent-decoded (`till%3A7` is `till:7`).
    /// - Throws: ``GatewayAPIError/Code/invalidRequest`` for a malformed percent-encoding.
    public func pathParameter(_ name: String) throws -> String {
        let raw = Array(try parameters.require(name).utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            guard raw[index] == UInt8(ascii: "%") else {
                decoded.append(raw[index])
                index += 1
                continue
            }
            guard index + 2 < raw.count,
                let byte = [UInt8](hex: String(decoding: raw[(index + 1)...(index + 2)], as: UTF8.self))
            else {
                throw GatewayAPIError(
                    code: .invalidRequest, message: "the path parameter \(name) is not valid percent-encoding")
            }
            decoded += byte
            index += 3
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw GatewayAPIError(code: .invalidRequest, message: "the path parameter \(name) is not UTF-8")
        }
        return text
    }

    /// The API's request decoder.
    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }

    /// The API's response encoder.
    public var responseEncoder: JSONEncoder { JSONEncoder.gatewayAPI }
}

/// Decodes request bodies with the API's JSON rules; a body that does not decode is an
/// ``GatewayAPIError/Code/invalidRequest`` naming the coding path only.
public struct APIRequestDecoder: RequestDecoder {
    /// Decodes `type` from the request's body.
    public func decode<T: Decodable>(
        _ type: T.Type, from request: Request, context: some RequestContext
    ) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return try Self.decode(T.self, from: Data(buffer.readableBytesView))
    }

    /// Decodes `type` from body bytes with the API's JSON rules; a `DecodingError` becomes
    /// ``GatewayAPIError/Code/invalidRequest`` naming the coding path only.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        // Foundation's decoder accepts some things JSON does not, such as a trailing comma.
        do {
            try StrictJSON.validate(data)
        } catch {
            throw GatewayAPIError(code: .invalidRequest, message: "the body is not JSON: \(error.message)")
        }
        do {
            return try JSONDecoder.gatewayAPI.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw GatewayAPIError(code: .invalidRequest, message: describe(error))
        }
    }

    /// What is wrong, by coding path: DecodingError's own descriptions can quote the offending value.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "the body" : path
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "\(parent == "the body" ? "" : parent + ".")\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context): return "\(path(context)) is not valid"
        @unknown default: return "the body is not valid"
        }
    }
}
