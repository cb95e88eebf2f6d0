public import Foundation

/// An eligibility answer as the issuer keeps it: the funding PAN only encrypted, found by its keyed hash.
public struct EligibilityRecord: Sendable, Hashable, CustomStringConvertible {
    /// The answer's id.
    public let id: String
    /// The funding account's keyed PAN hash.
    public let fundingKeyedPAN: KeyedPANHash
    /// The funding PAN under the issuer's PAN encryption key (AES-256-GCM), for provisioning.
    public let encryptedFundingPAN: [UInt8]
    /// The funding card's last four digits.
    public let fundingLastFour: String
    /// The wallet that asked.
    public let walletID: String
    /// The device the token is for.
    public let deviceID: String
    /// The scheme.
    public let scheme: PaymentScheme
    /// The terms offered.
    public let termsID: String
    /// When the answer lapses.
    public let validUntil: Date

    /// Creates a record.
    public init(
        id: String, fundingKeyedPAN: KeyedPANHash, encryptedFundingPAN: [UInt8], fundingLastFour: String,
        walletID: String, deviceID: String, scheme: PaymentScheme, termsID: String, validUntil: Date
    ) {
        self.id = id
        self.fundingKeyedPAN = fundingKeyedPAN
        self.encryptedFundingPAN = encryptedFundingPAN
        self.fundingLastFour = fundingLastFour
        self.walletID = walletID
        self.deviceID = deviceID
        self.scheme = scheme
        self.termsID = termsID
        self.validUntil = validUntil
    }

    /// The id, scheme and wallet only.
    public var description: String { "EligibilityRecord(\(id), \(scheme), \(walletID))" }
}
