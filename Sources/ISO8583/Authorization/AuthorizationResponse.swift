import EMV

/// The issuer's answer to an authorization request (0110) or reversal (0410): the response code, the approval code,
/// and the issuer authentication data for the card (the ARPC, field 55 tag 91). The issuer writes it with
/// ``message(answering:)``; the gateway reads it with ``init(_:)``.
public struct AuthorizationResponse: Sendable, Hashable {
    /// Field 39.
    public let responseCode: ResponseCode
    /// Field 38, when approved.
    public let approvalCode: String?
    /// Field 55 tag 91: the ARPC and ARC or CSU, for the card's EXTERNAL AUTHENTICATE or second GENERATE AC.
    public let issuerAuthenticationData: [UInt8]?

    /// The request fields a response echoes: the PAN, processing code, amount, times, STAN, RRN, terminal and
    /// merchant ids and currency, so the acquirer can match it.
    public static let echoedFields: [ISO8583Field] = [
        .pan, .processingCode, .amount, .transmissionDateTime, .systemTraceAuditNumber, .localTime,
        .retrievalReferenceNumber, .terminalID, .merchantID, .currencyCode,
    ]

    /// Whether the issuer approved (`00`).
    public var isApproved: Bool { responseCode == .approved }

    /// Creates a response from its parts.
    public init(responseCode: ResponseCode, approvalCode: String? = nil, issuerAuthenticationData: [UInt8]? = nil) {
        self.responseCode = responseCode
        self.approvalCode = approvalCode
        self.issuerAuthenticationData = issuerAuthenticationData
    }

    /// Reads a response message.
    /// - Throws: ``ISO8583Error/Code/invalidValue`` when it is not a response (field 0), has no two-character field
    ///   39, or field 55 is not BER-TLV.
    public init(_ message: ISO8583Message) throws(ISO8583Error) {
        guard [.requestResponse, .adviceResponse].contains(message.mti.function) else {
            throw ISO8583Error(code: .invalidValue, field: 0, message: "a \(message.mti) is not a response")
        }
        guard let code = message[.responseCode]?.text, code.utf8.count == 2 else {
            throw ISO8583Error(
                code: .invalidValue, field: ISO8583Field.responseCode.rawValue,
                message: "the \(message.mti) has no two-character field 39")
        }
        let iccData: TLVNodeCollection?
        do {
            iccData = try message.iccData()
        } catch {
            throw ISO8583Error(
                code: .invalidValue, field: ISO8583Field.iccData.rawValue,
                message: "field 55 of the \(message.mti) is not BER-TLV")
        }
        self.init(
            responseCode: ResponseCode(rawValue: code), approvalCode: message[.authorizationCode]?.text,
            issuerAuthenticationData: iccData?.first(.issuerAuthenticationData).map { Array($0.value) })
    }

    /// The response to `request`: its response MTI (0110 for a 0100, 0410 for a 0400), the ``echoedFields``, field
    /// 39, field 38 when there is an approval code, and field 55 with tag 91 when there is issuer authentication
    /// data.
    public func message(answering request: ISO8583Message) -> ISO8583Message {
        var response = ISO8583Message(mti: request.mti.response ?? request.mti)
        for field in Self.echoedFields { response[field] = request[field] }
        response[.responseCode] = .text(responseCode.rawValue)
        if let approvalCode { response[.authorizationCode] = .text(approvalCode) }
        if let issuerAuthenticationData {
            var serializer = TLV.Serializer()
            // Tag 91 holds at most 16 bytes: its length always fits.
            try? serializer.append(tag: .issuerAuthenticationData, value: issuerAuthenticationData)
            response.setICCData(serializer.bytes)
        }
        return response
    }
}
