public import Foundation

extension AuthorizationRequest {
    /// Field 90, original data elements.
    public static let originalDataElements = ISO8583Field(rawValue: 90)

    /// The 0400 reversing an authorization request: the same fields 2, 3, 4, 11, 12, 37, 41, 42 and 49 (the issuer
    /// finds the authorization by STAN, RRN and terminal), no card-read fields (14, 22, 23, 35, 48, 52, 55), and field
    /// 90 (original data elements: MTI, STAN, transmission date and time of the original).
    /// - Parameters:
    ///   - request: The 0100 to reverse.
    ///   - transmissionDate: When the reversal is sent, for its field 7; the original's field 7 when nil.
    /// - Throws: ``ISO8583Error/Code/invalidValue`` when `request` is not a 0100 with fields 7, 11, 37 and 41.
    public static func reversal(
        of request: ISO8583Message, transmissionDate: Date? = nil
    ) throws(ISO8583Error) -> ISO8583Message {
        guard request.mti == .authorizationRequest, let stan = request[.systemTraceAuditNumber]?.text,
            stan.utf8.count == 6, let sent = request[.transmissionDateTime]?.text, sent.utf8.count == 10,
            request[.retrievalReferenceNumber] != nil, request[.terminalID] != nil
        else {
            throw ISO8583Error(
                code: .invalidValue, field: 0, message: "only a 0100 with fields 7, 11, 37 and 41 can be reversed")
        }
        var reversal = request
        reversal.mti = .reversalRequest
        for field: ISO8583Field in [
            .expirationDate, .posEntryMode, .cardSequenceNumber, .track2, .additionalData, .pinBlock, .iccData,
        ] {
            reversal[field] = nil
        }
        if let transmissionDate {
            reversal[.transmissionDateTime] = .text(
                AuthorizationFields.timestamp(transmissionDate, "MMddHHmmss", in: AuthorizationFields.utc))
        }
        // Original MTI, STAN and date-time, then acquiring and forwarding institution ids (none: zeros).
        reversal[originalDataElements] = .text("\(request.mti)" + stan + sent + String(repeating: "0", count: 22))
        return reversal
    }
}
