public import CardEmulator
public import EMV

/// What the issuer returns when a digitization completes: the token, its device account number and its first
/// payment keys. The description shows the masked DPAN only.
public struct TokenizedCard: Sendable, CustomStringConvertible, CustomReflectable {
    /// The issuer's token identifier.
    public var tokenID: String
    /// The device account number from the issuer's token vault.
    public var dpan: PAN
    /// The token's expiry.
    public var expiry: ExpiryDate
    /// The PAN sequence number the card carries (tag 5F34), two digits.
    public var panSequenceNumber: String
    /// The scheme, which picks the card profile template.
    public var scheme: CardProfile.Scheme
    /// The funding card's last four digits, for the card art.
    public var fundingLastFour: String
    /// The first payment keys (one per transaction).
    public var keys: [LimitedUseKey]

    /// Creates a tokenized card.
    public init(
        tokenID: String, dpan: PAN, expiry: ExpiryDate, panSequenceNumber: String, scheme: CardProfile.Scheme,
        fundingLastFour: String, keys: [LimitedUseKey]
    ) {
        self.tokenID = tokenID
        self.dpan = dpan
        self.expiry = expiry
        self.panSequenceNumber = panSequenceNumber
        self.scheme = scheme
        self.fundingLastFour = fundingLastFour
        self.keys = keys
    }

    /// The masked DPAN, scheme and key count.
    public var description: String { "TokenizedCard(\(dpan.masked), \(scheme), \(keys.count) keys)" }

    /// The same fields as ``description``.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["dpan": dpan.masked, "scheme": scheme, "keyCount": keys.count], displayStyle: .struct)
    }
}
