/// How the issuer sends a digitization's one-time code to the cardholder (SMS, e-mail, its banking app): the
/// channel on file for the funding account, never the wallet asking.
public protocol OneTimeCodeSender: Sendable {
    /// Delivers `message` and returns where it went, masked for display (`SMS to •••• 0123`).
    /// - Throws: ``IssuerError/Code/codeDeliveryFailed`` when it cannot be delivered.
    func send(_ message: OneTimeCodeMessage) async throws(IssuerError) -> String
}

/// One one-time code on its way to a cardholder. The description never shows the code.
public struct OneTimeCodeMessage: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The digitization the code confirms.
    public let digitizationID: String
    /// The six digits.
    public let code: String
    /// The funding account, by keyed PAN hash: whose channel on file to use.
    public let fundingKeyedPAN: KeyedPANHash
    /// The funding card's last four digits, for the message text.
    public let fundingLastFour: String

    /// Creates a message.
    public init(digitizationID: String, code: String, fundingKeyedPAN: KeyedPANHash, fundingLastFour: String) {
        self.digitizationID = digitizationID
        self.code = code
        self.fundingKeyedPAN = fundingKeyedPAN
        self.fundingLastFour = fundingLastFour
    }

    /// The digitization only.
    public var description: String { "OneTimeCodeMessage(\(digitizationID))" }

    /// The digitization only.
    public var customMirror: Mirror {
        Mirror(self, children: ["digitizationID": digitizationID], displayStyle: .struct)
    }
}
