import ISO8583

/// What pairs a response with its request on a shared connection: the response MTI (`0110` for a `0100`), STAN
/// (field 11), terminal id (field 41) and RRN (field 37, when present).
struct ResponseKey: Hashable, Sendable, CustomStringConvertible {
    let mti: MessageTypeIndicator
    let systemTraceAuditNumber: String
    let terminalID: String
    let retrievalReferenceNumber: String?

    /// The key the response to `request` will have; nil when the request is not a request or advice, or lacks a
    /// STAN or terminal id.
    init?(request: ISO8583Message) {
        guard let response = request.mti.response else { return nil }
        self.init(mti: response, request)
    }

    /// The key of a received response.
    init?(response: ISO8583Message) {
        self.init(mti: response.mti, response)
    }

    private init?(mti: MessageTypeIndicator, _ message: ISO8583Message) {
        guard let stan = message[.systemTraceAuditNumber]?.text, !stan.isEmpty,
            let terminal = message[.terminalID]?.text, !terminal.isEmpty
        else { return nil }
        self.mti = mti
        self.systemTraceAuditNumber = stan
        self.terminalID = terminal
        self.retrievalReferenceNumber = message[.retrievalReferenceNumber]?.text
    }

    /// `0110 STAN 000001 terminal TERM0001`: no card data.
    var description: String { "\(mti) STAN \(systemTraceAuditNumber) terminal \(terminalID)" }
}
