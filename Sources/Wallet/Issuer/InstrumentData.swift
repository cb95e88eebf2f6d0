public import EMV

/// The funding card the cardholder asks to digitize (Thales: `InstrumentData`).
public struct InstrumentData: Sendable, CustomStringConvertible {
    /// The funding card's PAN (masks itself in descriptions).
    public var fundingPAN: PAN
    /// The funding card's expiry.
    public var expiry: ExpiryDate

    /// Creates instrument data.
    public init(fundingPAN: PAN, expiry: ExpiryDate) {
        self.fundingPAN = fundingPAN
        self.expiry = expiry
    }

    /// The masked PAN only.
    public var description: String { "InstrumentData(\(fundingPAN.masked))" }
}
