import EMV
import Foundation
import GatewayAPI
import ISO8583

// Temporary: the integrator replaces these with the IssuerLink builders when they land.
extension PaymentService {
    struct MessageReference: Sendable {
        var stan: String
        var rrn: String
        var terminalID: String
        var cardAcceptorID: String
    }

    static func authorizationRequest(
        _ card: CardAuthorizationData, amount: Int, currency: Currency, kind: PaymentKind,
        reference: MessageReference, date: Date, pinBlock: [UInt8]?
    ) -> ISO8583Message {
        var message = ISO8583Message(mti: .authorizationRequest)
        message[.pan] = .text(card.pan.digits)
        message[.processingCode] = kind == .verification ? "180000" : "000000"
        message[.amount] = .text(padded(amount, 12))
        message[.transmissionDateTime] = .text(timestamp("MMddHHmmss", date))
        message[.systemTraceAuditNumber] = .text(reference.stan)
        message[.localTime] = .text(timestamp("HHmmss", date))
        if let expiry = card.expiry { message[.expirationDate] = .text(expiry.yymm) }
        message[.posEntryMode] = card.mode == .emv ? "071" : "911"
        if let psn = card.panSequenceNumber { message[.cardSequenceNumber] = .text("0" + [psn].hexString) }
        if let track2 = card.track2 {
            var text = track2.bytes.hexString.replacingOccurrences(of: "D", with: "=")
            while text.hasSuffix("F") { text.removeLast() }
            message[.track2] = .text(text)
        }
        message[.retrievalReferenceNumber] = .text(reference.rrn)
        message[.terminalID] = .text(reference.terminalID)
        message[.merchantID] = .text(reference.cardAcceptorID)
        message[.currencyCode] = .text(padded(currency.numericCode, 3))
        if let pinBlock { message[.pinBlock] = .binary(pinBlock) }
        if !card.iccData.isEmpty { message.setICCData(card.iccData) }
        return message
    }

    static func reversal(of request: ISO8583Message) -> ISO8583Message {
        var reversal = request
        reversal.mti = .reversalRequest
        for field: ISO8583Field in [.expirationDate, .posEntryMode, .cardSequenceNumber, .track2, .pinBlock, .iccData] {
            reversal[field] = nil
        }
        return reversal
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func timestamp(_ format: String, _ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}
