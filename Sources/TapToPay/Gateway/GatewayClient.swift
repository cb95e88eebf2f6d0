import Foundation
import GatewayAPI

/// The reader's calls to the PSP's API, typed: the account link and the prepare stream. Payments are the app's
/// business (with its own PSP credentials), as with ProximityReader.
struct GatewayClient: Sendable {
    /// Why a call failed.
    enum Failure: Error {
        /// No response: the PSP could not be reached.
        case network
        /// The PSP answered with a problem.
        case problem(GatewayAPIError)
        /// The answer was not what the API promises; the text says how.
        case malformed(String)
    }

    let transport: any GatewayTransport

    /// `GET /v1/account-links?deviceId=…`.
    func accountLinkStatus(token: String, deviceId: String) async throws(Failure) -> AccountLinkStatus {
        let response = try await send(.get, "/v1/account-links?deviceId=\(Self.escaped(deviceId))", token: token)
        return try await Self.decode(AccountLinkStatus.self, from: response)
    }

    /// `POST /v1/account-links`.
    func link(token: String, deviceId: String, relink: Bool) async throws(Failure) -> AccountLinkStatus {
        let body = try Self.encode(AccountLinkRequest(deviceId: deviceId, relink: relink))
        let response = try await send(.post, "/v1/account-links", token: token, body: body)
        return try await Self.decode(AccountLinkStatus.self, from: response)
    }

    /// `POST /v1/devices/{deviceId}/prepare`, reporting each progress line before the final one.
    func prepare(
        token: String, deviceId: String, progress: @Sendable (Int) -> Void
    ) async throws(Failure) -> ReaderProvisioning {
        let response = try await send(.post, "/v1/devices/\(Self.escaped(deviceId))/prepare", token: token)
        guard response.status == 200 else { throw try await Self.problem(in: response) }
        var buffer = Data()
        var sawProgress = false
        do {
            for try await chunk in response.body {
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else { continue }
                    guard let item = try? JSONDecoder.gatewayAPI.decode(PrepareProgress.self, from: line) else {
                        throw Failure.malformed("a prepare line is not a progress object")
                    }
                    if let provisioning = item.provisioning {
                        // A first prepare's last step; a later prepare's only line stays silent.
                        if sawProgress { progress(item.progress) }
                        return provisioning
                    }
                    if let problem = item.error { throw Failure.problem(problem.error) }
                    sawProgress = true
                    progress(item.progress)
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.network
        }
        throw Failure.malformed("the prepare stream ended before its last line")
    }

    private func send(
        _ method: GatewayRequest.Method, _ path: String, token: String, body: Data? = nil
    ) async throws(Failure) -> GatewayResponse {
        do {
            return try await transport.send(GatewayRequest(method: method, path: path, bearer: token, body: body))
        } catch {
            throw Failure.network
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from response: GatewayResponse) async throws(Failure) -> T {
        guard (200..<300).contains(response.status) else { throw try await problem(in: response) }
        let body: Data
        do {
            body = try await response.collect()
        } catch {
            throw Failure.network
        }
        guard let value = try? JSONDecoder.gatewayAPI.decode(T.self, from: body) else {
            throw Failure.malformed("the answer is not a \(T.self)")
        }
        return value
    }

    /// The problem an error response carries (a body that is none is malformed).
    private static func problem(in response: GatewayResponse) async throws(Failure) -> Failure {
        guard let body = try? await response.collect(),
            let problem = try? JSONDecoder.gatewayAPI.decode(Problem.self, from: body)
        else {
            return .malformed("HTTP \(response.status) without a problem body")
        }
        return .problem(problem.error)
    }

    private static func encode(_ value: some Encodable) throws(Failure) -> Data {
        do {
            return try JSONEncoder.gatewayAPI.encode(value)
        } catch {
            throw Failure.malformed("the request could not be encoded")
        }
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }
}
