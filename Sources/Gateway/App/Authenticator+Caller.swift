import GatewayAPI

extension GatewayRequestContext {
    /// The authenticated caller, if its credential is one of `credentials`.
    /// - Throws: ``GatewayAPIError/Code/unauthorized`` when no ``Authenticator`` ran or the credential is another
    ///   kind (an API key where a reader token is needed, a reader token where a session is).
    public func requireCaller(_ credentials: Caller.Credential...) throws(GatewayAPIError) -> Caller {
        guard let caller else {
            throw GatewayAPIError(code: .unauthorized, message: "credentials are missing")
        }
        guard credentials.contains(caller.credential) else {
            let accepted = credentials.map(\.description).joined(separator: " or ")
            throw GatewayAPIError(code: .unauthorized, message: "this call takes \(accepted)")
        }
        return caller
    }
}

extension Caller {
    /// The audit log's name for the caller: `user:usr_…`, `device:…` or `merchant:mer_…` (API key).
    public var auditActor: String {
        switch credential {
        case .readerToken: "user:\(userId ?? "?")"
        case .readerSession: "device:\(deviceId ?? "?")"
        case .apiKey: "merchant:\(merchantId)"
        case .consoleSession: "user:\(userId ?? "?")"
        }
    }
}

extension Caller.Credential: CustomStringConvertible {
    /// How the credential is named in messages.
    public var description: String {
        switch self {
        case .apiKey: "an API key"
        case .readerToken: "a reader token"
        case .readerSession: "a reader session"
        case .consoleSession: "a console session"
        }
    }
}
