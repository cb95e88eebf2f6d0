import ISO8583

extension ISO8583Message {
    /// This message, if it is a readable response to `request`: its response MTI and a two-character field 39.
    /// - Throws: ``IssuerLinkError/malformedResponse``.
    func checkedResponse(to request: ISO8583Message) throws(IssuerLinkError) -> ISO8583Message {
        guard let expected = request.mti.response, mti == expected else {
            throw IssuerLinkError(
                code: .malformedResponse,
                message: "a \(mti) answered a \(request.mti), not a \(request.mti.response.map { "\($0)" } ?? "response")")
        }
        guard let code = self[.responseCode]?.text, code.utf8.count == 2 else {
            throw IssuerLinkError(code: .malformedResponse, message: "the \(mti) has no two-character field 39")
        }
        return self
    }

    /// This message after encoding and decoding with `specification`: what the other side of a wire would get.
    func roundTripped(using specification: Specification) throws(ISO8583Error) -> ISO8583Message {
        try ISO8583Message(decoding: try encoded(using: specification), using: specification)
    }
}
