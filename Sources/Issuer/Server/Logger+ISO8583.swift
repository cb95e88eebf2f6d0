public import ISO8583
public import Logging

extension Logger {
    /// The MTI, STAN and terminal id of a message: enough to find it in a log, no card data.
    public static func metadata(identifying message: ISO8583Message) -> Metadata {
        [
            "mti": "\(message.mti)", "stan": "\(message[.systemTraceAuditNumber]?.text ?? "-")",
            "terminal": "\(message[.terminalID]?.text ?? "-")",
        ]
    }

    /// An ISO 8583 error's code, field and offset. Its message is left out, so no value read from the wire can reach
    /// the log.
    public static func metadata(of error: ISO8583Error) -> Metadata {
        var metadata: Metadata = ["code": "\(error.code)"]
        if let field = error.field { metadata["field"] = "\(field)" }
        if let offset = error.offset { metadata["offset"] = "\(offset)" }
        return metadata
    }
}
