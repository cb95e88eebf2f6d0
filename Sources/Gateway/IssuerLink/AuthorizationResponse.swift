public import ISO8583
public import Issuer
import EMV

/// What the gateway reads from the issuer's answer (0110, or 0410 for a reversal): the response code, the approval
/// code, and the issuer authentication data for the card (the ARPC, field 55 tag 91).
public struct AuthorizationResponse: Sendable, Hashable {
    /// Field 39.
    public let responseCode: ResponseCode
    /// Field 38, when approved.
    public let approvalCode: String?
    /// Field 55 tag 91: the ARPC and ARC or CSU, for the card's EXTERNAL AUTHENTICATE or second GENERATE AC.
    public let issuerAuthenticationData: [UInt8]?

    /// Whether the issuer approved (`00`).
    public var isApproved: Bool { responseCode == .approved }

    /// Creates a response from its parts.
    public init(responseCode: ResponseCode, approvalCode: String? = nil, issuerAuthenticationData: [UInt8]? = nil) {
        self.responseCode = responseCode
        self.approvalCode = approvalCode
        self.issuerAuthenticationData = issuerAuthenticationData
    }

    /// Reads a response message.
    /// - Throws: ``IssuerLinkError/malformedResponse`` when it is not a response, has no two-character field 39, or
    ///   field 55 is not BER-TLV.
    public init(_ message: ISO8583Message) throws(IssuerLinkError) {
        guard [.requestResponse, .adviceResponse].contains(message.mti.function) else {
            throw IssuerLinkError(code: .malformedResponse, message: "a \(message.mti) is not a response")
        }
        guard let code = message[.responseCode]?.text, code.utf8.count == 2 else {
            throw IssuerLinkError(code: .malformedResponse, message: "the \(message.mti) has no two-character field 39")
        }
        let iccData: TLVNodeCollection?
        do {
            iccData = try message.iccData()
        } catch {
            throw IssuerLinkError(code: .malformedResponse, message: "field 55 of the \(message.mti) is not BER-TLV")
        }
        self.init(
            responseCode: ResponseCode(rawValue: code), approvalCode: message[.authorizationCode]?.text,
            issuerAuthenticationData: iccData?.first(.issuerAuthenticationData).map { Array($0.value) })
    }
}
