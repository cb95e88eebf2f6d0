public import EMV

/// An authorization request (0100) as a host reads it: the fields it decides on, typed, with the same field rules
/// ``AuthorizationRequest`` writes them with.
///
/// Required: the processing code, PAN, amount and currency (3, 2, 4, 49) and the STAN, RRN and terminal id that
/// identify the authorization (11, 37, 41). Fields 14, 23, 35, 48, 52 and 55 are read when present. Holds card
/// data: it prints the masked PAN only.
public struct ReceivedAuthorizationRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// Field 2.
    public let pan: PAN
    /// Field 3.
    public let processingCode: String
    /// Field 4, in the currency's minor units.
    public let amount: Int
    /// Field 49, the ISO 4217 numeric code.
    public let currencyCode: Int
    /// Fields 11, 37 and 41.
    public let reference: AuthorizationReference
    /// Field 14.
    public let expiry: ExpiryDate?
    /// Field 23, as the card's PAN sequence number (5F34, two BCD digits).
    public let panSequenceNumber: UInt8?
    /// Field 55's data objects; empty when the field is absent.
    public let iccData: TLVNodeCollection
    /// Field 52.
    public let pinBlock: [UInt8]?
    /// Field 48 of a remote token payment (``ISO8583Message/isTokenPayment``).
    public let tokenPaymentData: TokenPaymentData?
    private let field35: String?

    /// Reads `message`.
    /// - Throws: ``ISO8583Error/Code/invalidValue`` naming the first field that is required and missing, or present
    ///   and unreadable; never its value.
    public init(_ message: ISO8583Message) throws(ISO8583Error) {
        func invalid(_ field: ISO8583Field) -> ISO8583Error {
            ISO8583Error(
                code: .invalidValue, field: field.rawValue,
                message: "field \(field.rawValue) is missing or unreadable in the \(message.mti)")
        }
        func text(_ field: ISO8583Field) throws(ISO8583Error) -> String {
            guard let text = message[field]?.text, !text.isEmpty else { throw invalid(field) }
            return text
        }
        guard let pan = try? PAN(text(.pan)) else { throw invalid(.pan) }
        self.pan = pan
        processingCode = try text(.processingCode)
        guard let amount = AuthorizationFields.number(try text(.amount)) else { throw invalid(.amount) }
        guard let currencyCode = AuthorizationFields.number(try text(.currencyCode)) else {
            throw invalid(.currencyCode)
        }
        self.amount = amount
        self.currencyCode = currencyCode
        reference = AuthorizationReference(
            systemTraceAuditNumber: try text(.systemTraceAuditNumber),
            retrievalReferenceNumber: try text(.retrievalReferenceNumber), terminalID: try text(.terminalID))
        if let text = message[.expirationDate]?.text {
            guard let expiry = AuthorizationFields.expiry(field14: text) else { throw invalid(.expirationDate) }
            self.expiry = expiry
        } else {
            expiry = nil
        }
        if let text = message[.cardSequenceNumber]?.text {
            guard let psn = AuthorizationFields.panSequenceNumber(field23: text) else {
                throw invalid(.cardSequenceNumber)
            }
            panSequenceNumber = psn
        } else {
            panSequenceNumber = nil
        }
        // No field 55 reads as no data objects (a mag-stripe or token 0100).
        guard let iccData = try? message.iccData() ?? TLV.parse([]) else { throw invalid(.iccData) }
        self.iccData = iccData
        pinBlock = message[.pinBlock]?.bytes
        tokenPaymentData = message.isTokenPayment ? message.tokenPaymentData : nil
        field35 = message[.track2]?.text
    }

    /// Field 35 read back into track 2 equivalent data; nil when absent or unreadable. Read on demand: hosts that
    /// decide on field 55 never need it.
    public var track2: Track2EquivalentData? { field35.flatMap(AuthorizationFields.track2(field35:)) }

    /// The amount the card's cryptogram covers: field 55's Amount, Authorised (9F02) in its Transaction Currency
    /// (5F2A); nil when either is absent or unreadable.
    public var cryptogramAmount: Amount? {
        guard let amount = iccData.first(.amountAuthorised), let currency = iccData.first(.transactionCurrencyCode),
            let currency = try? Currency(emvCode: currency.value)
        else { return nil }
        return try? Amount(n12: amount.value, currency: currency)
    }

    /// `ReceivedAuthorizationRequest(PAN 476173******0119, STAN 000001)`.
    public var description: String {
        "ReceivedAuthorizationRequest(PAN \(pan.masked), STAN \(reference.systemTraceAuditNumber))"
    }

    /// The masked PAN and the STAN: `dump` shows no card data.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["pan": pan.masked, "systemTraceAuditNumber": reference.systemTraceAuditNumber],
            displayStyle: .struct)
    }
}
