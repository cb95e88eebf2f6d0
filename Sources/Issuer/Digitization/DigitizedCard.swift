public import EMV

/// A card digitized onto a device: what the wallet personalises its card applet with.
///
/// The description and mirror show the DPAN masked and the key count, never the DPAN or keys.
public struct DigitizedCard: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The issuer's opaque reference to the token, for replenishment and life-cycle calls (not the DPAN).
    public let tokenID: String
    /// The device account number the card pays with.
    public let dpan: PAN
    /// The token's expiry.
    public let expiry: ExpiryDate
    /// The PAN sequence number of the DPAN: always `00` (the keys derive with it).
    public let panSequenceNumber: String
    /// The card's scheme.
    public let scheme: PaymentScheme
    /// The funding card's last four digits, for display.
    public let fundingLastFour: String
    /// The first batch of limited-use keys, in ATC order.
    public let paymentKeys: [PaymentKey]

    /// Creates a digitized card.
    public init(
        tokenID: String, dpan: PAN, expiry: ExpiryDate, panSequenceNumber: String, scheme: PaymentScheme,
        fundingLastFour: String, paymentKeys: [PaymentKey]
    ) {
        self.tokenID = tokenID
        self.dpan = dpan
        self.expiry = expiry
        self.panSequenceNumber = panSequenceNumber
        self.scheme = scheme
        self.fundingLastFour = fundingLastFour
        self.paymentKeys = paymentKeys
    }

    /// `DigitizedCard(mastercard 520473******1234, funding 1513, 10 keys)`.
    public var description: String {
        "DigitizedCard(\(scheme) \(dpan.masked), funding \(fundingLastFour), \(paymentKeys.count) keys)"
    }

    /// Token id, masked DPAN, scheme and key count only.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "tokenID": tokenID, "dpan": dpan.masked, "scheme": scheme, "fundingLastFour": fundingLastFour,
                "keyCount": paymentKeys.count,
            ],
            displayStyle: .struct)
    }
}
