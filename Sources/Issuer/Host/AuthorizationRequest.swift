import EMV
import ISO8583

/// The fields of a 0100 the host decides on, read and checked; internal, because the public form is the message.
struct AuthorizationRequest: Sendable {
    let pan: PAN
    let panSequenceNumber: String?
    let amount: Int
    let currencyCode: Int
    let expiry: ExpiryDate?
    let reference: AuthorizationReference
    let iccData: TLVNodeCollection
    let pinBlock: [UInt8]?

    /// Reads the request; nil when a required field (2, 3, 4, 11, 37, 41, 49, 55) is missing or unreadable.
    init?(_ message: ISO8583Message) {
        guard message[.processingCode]?.text != nil,
            let panText = message[.pan]?.text, let pan = try? PAN(panText),
            let amountText = message[.amount]?.text, let amount = Self.number(amountText),
            let currencyText = message[.currencyCode]?.text, let currencyCode = Self.number(currencyText),
            let reference = Self.reference(message),
            let iccData = try? message.iccData(), !iccData.isEmpty
        else { return nil }
        self.pan = pan
        self.amount = amount
        self.currencyCode = currencyCode
        self.reference = reference
        self.iccData = iccData
        // Field 23 is n3 ("001"); the key derivation takes the PSN's last two digits.
        self.panSequenceNumber = message[.cardSequenceNumber]?.text.map { String($0.suffix(2)) }
        if let expiryText = message[.expirationDate]?.text {
            guard let bytes = [UInt8](hex: expiryText), let expiry = try? ExpiryDate(n4: bytes) else { return nil }
            self.expiry = expiry
        } else {
            self.expiry = nil
        }
        self.pinBlock = message[.pinBlock]?.bytes
    }

    /// STAN, RRN and terminal id (fields 11, 37, 41).
    static func reference(_ message: ISO8583Message) -> AuthorizationReference? {
        guard let stan = message[.systemTraceAuditNumber]?.text, !stan.isEmpty,
            let rrn = message[.retrievalReferenceNumber]?.text, !rrn.isEmpty,
            let terminal = message[.terminalID]?.text, !terminal.isEmpty
        else { return nil }
        return AuthorizationReference(systemTraceAuditNumber: stan, retrievalReferenceNumber: rrn, terminalID: terminal)
    }

    /// A non-negative decimal of at most 18 digits.
    static func number(_ text: some StringProtocol) -> Int? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    /// Mastercard: the wallet transaction data in the IAD (9F10), the bytes after M/Chip's 18 (offset 18, at most
    /// 14; see `EmulatedCard.setWalletTransactionData`); nil for other layouts or an IAD of 18 bytes or fewer.
    func walletTransactionData(for version: CryptogramVersion) -> [UInt8]? {
        guard version.issuerApplicationDataFormat == .mastercard, let iad = iccData.first(.issuerApplicationData),
            iad.value.count > MastercardIssuerApplicationData.minimumByteCount
        else { return nil }
        return Array(iad.value.dropFirst(MastercardIssuerApplicationData.minimumByteCount))
    }

    /// A numeric data object of field 55 (n12 amount, n3 currency code in two bytes) as an integer.
    func numericValue(_ tag: Tag) -> Int? {
        guard let node = iccData.first(tag) else { return nil }
        return Self.number(Array(node.value).hexString)
    }
}
