public import EMV
public import Foundation

/// The 0100 authorization request for one card read, and the 0400 that reverses it: what the gateway sends the
/// issuer. The issuer reads a 0100 back with ``ReceivedAuthorizationRequest``.
///
/// ```swift
/// let request = AuthorizationRequest(
///     card: payload.authorization, amount: 1_000, currency: .eur, type: .purchase, systemTraceAuditNumber: 1,
///     retrievalReferenceNumber: "000000000001", terminalID: "TERM0001", merchantID: "MERCHANT0000001",
///     transmissionDate: now)
/// let response = try await link.send(try request.message(), timeout: .seconds(5))
/// ```
///
/// The 0100 carries fields 2, 3, 4, 7, 11, 12, 14, 22, 23, 35, 37, 41, 42, 49, 52 (with a PIN block) and 55 (in
/// EMV mode). It holds card data: its description and mirror show the masked PAN only, never track 2 or the PIN
/// block.
public struct AuthorizationRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// The kind of transaction, field 3's first two digits.
    public enum TransactionType: String, Sendable, Hashable, CaseIterable {
        /// Goods and services: processing code `000000`.
        case purchase
        /// A card-present refund (return): `200000`.
        case refund
        /// Account verification without an amount (look up, save a card, open a tab): `180000`.
        case accountVerification

        /// Field 3: the transaction type, then the default "from" and "to" account types (`00`).
        public var processingCode: String {
            switch self {
            case .purchase: "000000"
            case .refund: "200000"
            case .accountVerification: "180000"
            }
        }
    }

    /// The card data of the read.
    public var card: CardAuthorizationData
    /// The amount in the currency's minor units (0 for account verification), field 4.
    public var amount: Int
    /// The transaction currency, field 49.
    public var currency: Currency
    /// The transaction type, field 3.
    public var type: TransactionType
    /// The system trace audit number, 0...999,999, field 11.
    public var systemTraceAuditNumber: Int
    /// The retrieval reference number, 12 characters, field 37.
    public var retrievalReferenceNumber: String
    /// The terminal id, at most 8 characters (padded with spaces), field 41.
    public var terminalID: String
    /// The merchant id, at most 15 characters (padded with spaces), field 42.
    public var merchantID: String
    /// When the message is sent: field 7 (UTC) and field 12 (in ``localTimeZone``).
    public var transmissionDate: Date
    /// The time zone of field 12, the local time of the transaction.
    public var localTimeZone: TimeZone
    /// An online PIN block (ISO 9564 format 0, 8 bytes, or format 4, 16 bytes), field 52.
    public var pinBlock: [UInt8]?

    /// Creates the message parts; ``message()`` checks them.
    public init(
        card: CardAuthorizationData, amount: Int, currency: Currency, type: TransactionType = .purchase,
        systemTraceAuditNumber: Int, retrievalReferenceNumber: String, terminalID: String, merchantID: String,
        transmissionDate: Date, localTimeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
        pinBlock: [UInt8]? = nil
    ) {
        self.card = card
        self.amount = amount
        self.currency = currency
        self.type = type
        self.systemTraceAuditNumber = systemTraceAuditNumber
        self.retrievalReferenceNumber = retrievalReferenceNumber
        self.terminalID = terminalID
        self.merchantID = merchantID
        self.transmissionDate = transmissionDate
        self.localTimeZone = localTimeZone
        self.pinBlock = pinBlock
    }

    /// The 0100.
    /// - Throws: ``ISO8583Error/Code/invalidValue`` naming the field whose value is out of range (an amount over 12
    ///   digits or negative, a STAN over 6 digits, an RRN not of 12 characters, an id too long, a PIN block not of
    ///   8 or 16 bytes); never the value.
    public func message() throws(ISO8583Error) -> ISO8583Message {
        try check()
        var message = ISO8583Message(mti: .authorizationRequest)
        Self.setCardFields(of: card, in: &message)
        message[.processingCode] = .text(type.processingCode)
        message[.amount] = .text(AuthorizationFields.digits(amount, width: 12))
        message[.transmissionDateTime] = .text(
            AuthorizationFields.timestamp(transmissionDate, "MMddHHmmss", in: AuthorizationFields.utc))
        message[.systemTraceAuditNumber] = .text(AuthorizationFields.digits(systemTraceAuditNumber, width: 6))
        message[.localTime] = .text(AuthorizationFields.timestamp(transmissionDate, "HHmmss", in: localTimeZone))
        message[.retrievalReferenceNumber] = .text(retrievalReferenceNumber)
        message[.terminalID] = .text(AuthorizationFields.padded(terminalID, width: 8))
        message[.merchantID] = .text(AuthorizationFields.padded(merchantID, width: 15))
        message[.currencyCode] = .text(AuthorizationFields.digits(currency.numericCode, width: 3))
        if let pinBlock { message[.pinBlock] = .binary(pinBlock) }
        return message
    }

    /// The fields a card read fills: 2, 14, 22, 23, 35 and 55.
    private static func setCardFields(of card: CardAuthorizationData, in message: inout ISO8583Message) {
        message[.pan] = .text(card.pan.digits)
        if let expiry = card.expiry { message[.expirationDate] = .text(expiry.yymm) }
        // 07x contactless chip, 91x contactless mag-stripe; x = 1: the terminal can take a PIN.
        message[.posEntryMode] = card.mode == .emv ? "071" : "911"
        if let psn = card.panSequenceNumber { message[.cardSequenceNumber] = .text(AuthorizationFields.field23(psn)) }
        if let track2 = card.track2 { message[.track2] = .text(AuthorizationFields.field35(track2)) }
        if !card.iccData.isEmpty { message.setICCData(card.iccData) }
    }

    /// Checks that `card` fits the 0100's card fields (2, 14, 22, 23, 35, 55) under `specification`, so a read that
    /// could never be sent is refused before a payment is stored: a PAN sequence number that is not two BCD digits,
    /// track 2 over 37 digits, ICC data over 999 bytes.
    /// - Throws: ``ISO8583Error`` naming the field (never its value).
    public static func checkCardFields(
        of card: CardAuthorizationData, using specification: Specification = .contactless
    ) throws(ISO8583Error) {
        var message = ISO8583Message(mti: .authorizationRequest)
        setCardFields(of: card, in: &message)
        _ = try message.encoded(using: specification)
    }

    /// `AuthorizationRequest(purchase, 10.00 EUR, PAN 476173******0119, STAN 000001)`.
    public var description: String {
        let money = Amount(minorUnits: amount, currency: currency).formatted
        return "AuthorizationRequest(\(type.rawValue), \(money), PAN \(card.pan.masked), STAN "
            + "\(AuthorizationFields.digits(systemTraceAuditNumber, width: 6)))"
    }

    /// The type, amount, masked PAN and STAN: `dump` shows no card data.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "type": type.rawValue, "amount": amount, "currency": currency.alphabeticCode,
                "pan": card.pan.masked, "systemTraceAuditNumber": systemTraceAuditNumber,
            ],
            displayStyle: .struct)
    }

    private func check() throws(ISO8583Error) {
        func invalid(_ field: ISO8583Field, _ message: String) -> ISO8583Error {
            ISO8583Error(code: .invalidValue, field: field.rawValue, message: message)
        }
        guard (0...Amount.maximumN12).contains(amount) else {
            throw invalid(.amount, "field 4: the amount is not 0 to 12 digits")
        }
        guard type != .accountVerification || amount == 0 else {
            throw invalid(.amount, "field 4: an account verification has no amount")
        }
        guard (0...999_999).contains(systemTraceAuditNumber) else {
            throw invalid(.systemTraceAuditNumber, "field 11: the STAN is not 0 to 6 digits")
        }
        guard retrievalReferenceNumber.utf8.count == 12, retrievalReferenceNumber.utf8.allSatisfy(Self.isPrintable)
        else { throw invalid(.retrievalReferenceNumber, "field 37: the RRN is not 12 printable characters") }
        guard (1...8).contains(terminalID.utf8.count), terminalID.utf8.allSatisfy(Self.isPrintable) else {
            throw invalid(.terminalID, "field 41: the terminal id is not 1 to 8 printable characters")
        }
        guard (1...15).contains(merchantID.utf8.count), merchantID.utf8.allSatisfy(Self.isPrintable) else {
            throw invalid(.merchantID, "field 42: the merchant id is not 1 to 15 printable characters")
        }
        if let pinBlock, pinBlock.count != 8, pinBlock.count != 16 {
            throw invalid(.pinBlock, "field 52: a PIN block has 8 or 16 bytes, not \(pinBlock.count)")
        }
    }

    /// A retrieval reference number (field 37) unique per terminal for years: the year's last digit, the day of
    /// the year (3 digits) and the hour (2) of `time`, then the STAN (6).
    public static func retrievalReferenceNumber(at time: CivilTime, systemTraceAuditNumber: Int) -> String {
        String(time.year % 10) + AuthorizationFields.digits(time.dayOfYear, width: 3)
            + AuthorizationFields.digits(time.hour, width: 2)
            + AuthorizationFields.digits(systemTraceAuditNumber, width: 6)
    }

    private static func isPrintable(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }
}
