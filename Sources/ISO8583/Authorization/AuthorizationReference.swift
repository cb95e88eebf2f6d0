/// What identifies an authorization for its reversal: the acquirer's system trace audit number (field 11), retrieval
/// reference number (field 37) and terminal id (field 41).
public struct AuthorizationReference: Hashable, Sendable, CustomStringConvertible {
    /// Field 11.
    public let systemTraceAuditNumber: String
    /// Field 37.
    public let retrievalReferenceNumber: String
    /// Field 41.
    public let terminalID: String

    /// Creates a reference.
    public init(systemTraceAuditNumber: String, retrievalReferenceNumber: String, terminalID: String) {
        self.systemTraceAuditNumber = systemTraceAuditNumber
        self.retrievalReferenceNumber = retrievalReferenceNumber
        self.terminalID = terminalID
    }

    /// The reference of a 0100, 0400 or their responses; nil when field 11, 37 or 41 is missing or empty.
    public init?(_ message: ISO8583Message) {
        guard let stan = message[.systemTraceAuditNumber]?.text, !stan.isEmpty,
            let rrn = message[.retrievalReferenceNumber]?.text, !rrn.isEmpty,
            let terminal = message[.terminalID]?.text, !terminal.isEmpty
        else { return nil }
        self.init(systemTraceAuditNumber: stan, retrievalReferenceNumber: rrn, terminalID: terminal)
    }

    /// `STAN 000001, RRN 000000000001, terminal TERM0001`.
    public var description: String {
        "STAN \(systemTraceAuditNumber), RRN \(retrievalReferenceNumber), terminal \(terminalID)"
    }
}
