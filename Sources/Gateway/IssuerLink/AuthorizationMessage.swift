public import EMV
public import Foundation
public import GatewayAPI
public import ISO8583

/// What the gateway sends the issuer for one card read: the 0100 authorization request, and the 0400 that reverses
/// it.
///
/// ```swift
/// let message = AuthorizationMessage(
///     card: payload.authorization, amount: 1_000, currency: .eur, type: .purchase, systemTraceAuditNumber: 1,
///     retrievalReferenceNumber: "000000000001", terminalID: "TERM0001", merchantID: "MERCHANT0000001",
///     transmissionDate: now)
/// let response = try await link.send(try message.request(), timeout: .seconds(5))
/// ```
///
/// The 0100 carries fields 2, 3, 4, 7, 11, 12, 14, 22, 23, 35, 37, 41, 42, 49, 52 (with a PIN block) and 55 (in
/// EMV mode). It holds card data: its description and mirror show the masked PAN only, never track 2 or the PIN
/// block.
public struct AuthorizationMessage: Sendable, CustomStringConvertible, CustomReflectable {
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

    /// Creates the message parts; ``request()`` checks them.
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

    /// The 0100 authorization request.
    /// - Throws: ``IssuerLinkError/invalidRequest`` naming the value out of range (an amount over 12 digits or
    ///   negative, a STAN over 6 digits, an RRN not of 12 characters, an id too long, a PIN block not of 8 or 16
    ///   bytes).
    public func request() throws(IssuerLinkError) -> ISO8583Message {
        try check()
        var message = ISO8583Message(mti: .authorizationRequest)
        Self.setCardFields(of: card, in: &message)
        message[.processingCode] = .text(type.processingCode)
        message[.amount] = .text(Self.digits(amount, width: 12))
        message[.transmissionDateTime] = .text(Self.timestamp(transmissionDate, "MMddHHmmss", in: Self.utc))
        message[.systemTraceAuditNumber] = .text(Self.digits(systemTraceAuditNumber, width: 6))
        message[.localTime] = .text(Self.timestamp(transmissionDate, "HHmmss", in: localTimeZone))
        message[.retrievalReferenceNumber] = .text(retrievalReferenceNumber)
        message[.terminalID] = .text(Self.padded(terminalID, width: 8))
        message[.merchantID] = .text(Self.padded(merchantID, width: 15))
        message[.currencyCode] = .text(Self.digits(currency.numericCode, width: 3))
        if let pinBlock { message[.pinBlock] = .binary(pinBlock) }
        return message
    }

    /// The fields a card read fills: 2, 14, 22, 23, 35 and 55.
    private static func setCardFields(of card: CardAuthorizationData, in message: inout ISO8583Message) {
        message[.pan] = .text(card.pan.digits)
        if let expiry = card.expiry { message[.expirationDate] = .text(expiry.yymm) }
        // 07x contactless chip, 91x contactless mag-stripe; x = 1: the terminal can take a PIN.
        message[.posEntryMode] = card.mode == .emv ? "071" : "911"
        if let psn = card.panSequenceNumber { message[.cardSequenceNumber] = .text("0" + [psn].hexString) }
        if let track2 = card.track2 { message[.track2] = .text(Self.field35(track2)) }
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

    /// The 0400 reversing an authorization request: the same fields 2, 3, 4, 11, 12, 37, 41, 42 and 49 (the issuer
    /// finds the authorization by STAN, RRN and terminal), no card-read fields (14, 22, 23, 35, 48, 52, 55), and field 90
    /// (original data elements: MTI, STAN, transmission date and time of the original).
    /// - Parameters:
    ///   - request: The 0100 to reverse.
    ///   - transmissionDate: When the reversal is sent, for its field 7; the original's field 7 when nil.
    /// - Throws: ``IssuerLinkError/invalidRequest`` when `request` is not a 0100 with fields 7, 11, 37 and 41.
    public static func reversal(
        of request: ISO8583Message, transmissionDate: Date? = nil
    ) throws(IssuerLinkError) -> ISO8583Message {
        guard request.mti == .authorizationRequest, let stan = request[.systemTraceAuditNumber]?.text,
            stan.utf8.count == 6, let sent = request[.transmissionDateTime]?.text, sent.utf8.count == 10,
            request[.retrievalReferenceNumber] != nil, request[.terminalID] != nil
        else {
            throw IssuerLinkError(
                code: .invalidRequest, message: "only a 0100 with fields 7, 11, 37 and 41 can be reversed")
        }
        var reversal = request
        reversal.mti = .reversalRequest
        for field: ISO8583Field in [
            .expirationDate, .posEntryMode, .cardSequenceNumber, .track2, .additionalData, .pinBlock, .iccData,
        ] {
            reversal[field] = nil
        }
        if let transmissionDate {
            reversal[.transmissionDateTime] = .text(timestamp(transmissionDate, "MMddHHmmss", in: utc))
        }
        // Original MTI, STAN and date-time, then acquiring and forwarding institution ids (none: zeros).
        reversal[originalDataElements] = .text("\(request.mti)" + stan + sent + String(repeating: "0", count: 22))
        return reversal
    }

    /// Field 90, original data elements.
    public static let originalDataElements = ISO8583Field(rawValue: 90)

    /// `AuthorizationMessage(purchase, 10.00 EUR, PAN 476173******0119, STAN 000001)`.
    public var description: String {
        let money = Amount(minorUnits: amount, currency: currency).formatted
        return "AuthorizationMessage(\(type.rawValue), \(money), PAN \(card.pan.masked), STAN "
            + "\(Self.digits(systemTraceAuditNumber, width: 6)))"
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

    private func check() throws(IssuerLinkError) {
        func invalid(_ message: String) -> IssuerLinkError { IssuerLinkError(code: .invalidRequest, message: message) }
        guard (0...999_999_999_999).contains(amount) else { throw invalid("field 4: the amount is not 0 to 12 digits") }
        guard type != .accountVerification || amount == 0 else {
            throw invalid("field 4: an account verification has no amount")
        }
        guard (0...999_999).contains(systemTraceAuditNumber) else { throw invalid("field 11: the STAN is not 0 to 6 digits") }
        guard retrievalReferenceNumber.utf8.count == 12, retrievalReferenceNumber.utf8.allSatisfy(Self.isPrintable)
        else { throw invalid("field 37: the RRN is not 12 printable characters") }
        guard (1...8).contains(terminalID.utf8.count), terminalID.utf8.allSatisfy(Self.isPrintable) else {
            throw invalid("field 41: the terminal id is not 1 to 8 printable characters")
        }
        guard (1...15).contains(merchantID.utf8.count), merchantID.utf8.allSatisfy(Self.isPrintable) else {
            throw invalid("field 42: the merchant id is not 1 to 15 printable characters")
        }
        if let pinBlock, pinBlock.count != 8, pinBlock.count != 16 {
            throw invalid("field 52: a PIN block has 8 or 16 bytes, not \(pinBlock.count)")
        }
    }

    private static let utc = TimeZone(identifier: "UTC") ?? .current

    private static func isPrintable(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }

    /// `value` in decimal, left-padded with zeros to `width`.
    static func digits(_ value: Int, width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.utf8.count)) + text
    }

    /// `text` right-padded with spaces to `width` (ans fields are left-justified).
    static func padded(_ text: String, width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.utf8.count))
    }

    /// `date` as `format` (`MMddHHmmss`, `HHmmss`) in `timeZone`, with the Gregorian calendar whatever the locale.
    static func timestamp(_ date: Date, _ format: String, in timeZone: TimeZone) -> String {
        let time = CivilTime(date, in: timeZone)
        var text = ""
        var index = format.startIndex
        while index < format.endIndex {
            let value =
                switch format[index] {
                case "M": time.month
                case "d": time.day
                case "H": time.hour
                case "m": time.minute
                case "s": time.second
                default: 0
                }
            text += digits(value, width: 2)
            index = format.index(index, offsetBy: 2, limitedBy: format.endIndex) ?? format.endIndex
        }
        return text
    }

    /// Track 2 as field 35 carries it: the digits with `=` for the separator, without the pad nibble.
    static func field35(_ track2: Track2EquivalentData) -> String {
        var text = Array(track2.bytes.hexString.utf8)
        while text.last == UInt8(ascii: "F") { text.removeLast() }
        // Bytes rather than `replacingOccurrences`: Foundation's bridge cost 2 % of the SQLite thread's time.
        return String(decoding: text.map { $0 == UInt8(ascii: "D") ? UInt8(ascii: "=") : $0 }, as: UTF8.self)
    }
}
