public import ISO8583

/// The gateway's way to the issuer host: send one request (0100, 0400), get its response (0110, 0410).
///
/// ``InProcessIssuerLink`` calls a host in the same process; ``TCPIssuerLink`` talks ISO 8583 over TCP to
/// `tap issuer`. Both answer the same way: the response to `request`, checked to be its response type with a field
/// 39, or an ``IssuerLinkError``.
///
/// ```swift
/// let response = try await link.send(request, timeout: .seconds(5))
/// let answer = try AuthorizationResponse(response)
/// ```
public protocol IssuerLink: Sendable {
    /// Whether the issuer keeps its records in the gateway's own database (an in-process host on the same
    /// ``SQLDatabase``): then whatever it records commits after, and reaches the disk no sooner than, what the
    /// gateway stored before sending, and a crash loses both or neither — so the payment stored before a send need
    /// not be on disk before it (the gateway's last durable commit covers all three). False for a host elsewhere,
    /// which may act on a request before the gateway's record of it is on disk.
    var recordsInGatewayDatabase: Bool { get }

    /// Sends `request` and waits at most `timeout` for its response.
    /// - Throws: ``IssuerLinkError/timedOut`` (sent, no answer in time: reverse it),
    ///   ``IssuerLinkError/unavailable`` (no connection, or lost before the answer),
    ///   ``IssuerLinkError/malformedResponse``, ``IssuerLinkError/invalidRequest``.
    func send(_ request: ISO8583Message, timeout: Duration) async throws(IssuerLinkError) -> ISO8583Message
}

extension IssuerLink {
    /// A host elsewhere, by default.
    public var recordsInGatewayDatabase: Bool { false }
}
