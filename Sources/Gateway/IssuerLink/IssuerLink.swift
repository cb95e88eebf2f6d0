public import ISO8583

/// The gateway's side of the ISO 8583 link to the issuer host.
public protocol IssuerLink: Sendable {
    /// Sends `request` and waits at most `timeout` for its response.
    func send(_ request: ISO8583Message, timeout: Duration) async throws(IssuerLinkError) -> ISO8583Message
}
