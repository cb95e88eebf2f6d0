import Foundation
public import GatewayAPI
public import TapToPay

/// A ``MerchantBackend`` over the PSP's HTTP API with the merchant's API key: what a merchant's server in Swift
/// does for its terminals.
///
/// The API key is the merchant's secret: in an app, keep this on the server side of your own API. Errors are the
/// PSP's problems as ``GatewayAPI/GatewayAPIError`` (for example `cardDataExpired`, `incorrectPIN`).
public struct GatewayMerchantBackend: MerchantBackend, CustomStringConvertible, CustomReflectable {
    /// How requests reach the PSP (the reader SDK's transport).
    public let transport: any GatewayTransport
    /// The merchant user the terminal's reader tokens act for (`usr_…`).
    public let userID: String
    /// The lifetime asked for each reader token, in seconds (the PSP's default when nil).
    public let tokenLifetime: Int?
    private let apiKey: String

    /// A backend calling `transport` with `apiKey`, issuing reader tokens for `userID`.
    public init(transport: any GatewayTransport, apiKey: String, userID: String, tokenLifetime: Int? = nil) {
        self.transport = transport
        self.apiKey = apiKey
        self.userID = userID
        self.tokenLifetime = tokenLifetime
    }

    /// The user and the transport, never the API key.
    public var description: String { "GatewayMerchantBackend(user \(userID), \(transport))" }

    /// What `dump` shows: the description's fields, never the API key.
    public var customMirror: Mirror {
        Mirror(self, children: ["userID": userID, "tokenLifetime": tokenLifetime as Any], displayStyle: .struct)
    }

    /// `POST /v1/reader-tokens` for this backend's user, with its token lifetime.
    public func readerToken() async throws -> ReaderToken {
        try await readerToken(for: userID, lifetime: tokenLifetime)
    }

    /// `POST /v1/reader-tokens` for any user of the merchant: a staff user's token, or one that may relink.
    public func readerToken(for userID: String, allowsRelinking: Bool = false, lifetime: Int? = nil) async throws
        -> ReaderToken
    {
        try await post(
            "/v1/reader-tokens", ReaderTokenRequest(userId: userID, allowsRelinking: allowsRelinking, lifetime: lifetime))
    }

    /// `POST /v1/payments`.
    public func authorizePayment(_ request: CreatePaymentRequest) async throws -> Payment {
        try await post("/v1/payments", request)
    }

    /// `POST /v1/payments/{id}/pin`.
    public func submitPIN(_ submission: PINSubmission, paymentID: String) async throws -> Payment {
        let id = paymentID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["_", "-"])) ?? paymentID
        return try await post("/v1/payments/\(id)/pin", submission)
    }

    /// `POST /v1/refunds`.
    public func refund(_ request: CreateRefundRequest) async throws -> Refund {
        try await post("/v1/refunds", request)
    }

    /// One POST with the API key: the decoded answer, or the problem's error thrown.
    private func post<Answer: Decodable>(_ path: String, _ body: some Encodable) async throws -> Answer {
        let request = GatewayRequest(
            method: .post, path: path, bearer: apiKey, body: try JSONEncoder.gatewayAPI.encode(body))
        let response = try await transport.send(request)
        let data = try await response.collect()
        guard (200..<300).contains(response.status) else {
            guard let problem = try? JSONDecoder.gatewayAPI.decode(Problem.self, from: data) else {
                throw GatewayAPIError(code: .internalError, message: "HTTP \(response.status) without a problem body")
            }
            throw problem.error
        }
        return try JSONDecoder.gatewayAPI.decode(Answer.self, from: data)
    }
}
