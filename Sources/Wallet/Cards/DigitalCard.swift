public import CardEmulator
public import Foundation

/// A digital card in the wallet, as it is now (Thales: `DigitalCard`): its identifier, display details, state,
/// whether it is the default, and its payment keys. Shows at most the DPAN's BIN and last four.
public struct DigitalCard: Sendable, Hashable, CustomStringConvertible {
    /// The card's state (Thales's `DigitalCard.State`).
    public enum State: Int, Sendable, Hashable, Codable, CustomStringConvertible {
        /// Not known.
        case unknown = 0
        /// Pays.
        case active = 1
        /// Suspended: payment is unavailable until resumed.
        case suspended = 2
        /// No longer in use (deleted).
        case retired = 3
        /// Not activated (identity verification missing).
        case inactive = 4

        /// The state's name.
        public var description: String {
            switch self {
            case .unknown: "unknown"
            case .active: "active"
            case .suspended: "suspended"
            case .retired: "retired"
            case .inactive: "inactive"
            }
        }
    }

    /// What a wallet screen shows.
    public struct Details: Sendable, Hashable {
        /// The scheme.
        public let scheme: CardProfile.Scheme
        /// The DPAN's BIN and last four, the rest masked.
        public let maskedDPAN: String
        /// The DPAN's last four digits.
        public let lastFour: String
        /// The funding card's last four digits.
        public let fundingLastFour: String
        /// The token's expiry as `YYYY-MM`.
        public let expiry: String
    }

    /// The card's payment keys (Thales: `PaymentKeyInfo`).
    public struct PaymentKeyInfo: Sendable, Hashable {
        /// Keys usable now: unspent and unexpired, one per transaction.
        public let remainingKeys: Int
        /// When the first usable key expires; nil without keys.
        public let nextExpiry: Date?
        /// Whether the keys are below the wallet's threshold: call ``ReplenishmentService/replenish(digitalCardID:isForced:)``.
        public let needsReplenishment: Bool
    }

    /// The wallet's identifier of the card.
    public let digitalCardID: String
    /// The issuer's token identifier (what the issuer's lifecycle and replenishment calls name).
    public let tokenID: String
    /// Display details.
    public let details: Details
    /// The card's state.
    public let state: State
    /// Whether it is the wallet's default payment card.
    public let isDefaultCard: Bool
    /// Its payment keys.
    public let paymentKeyInfo: PaymentKeyInfo
    /// The wallet transaction data set for its payments (Mastercard, at most 14 bytes); nil when none.
    public let walletTransactionData: [UInt8]?

    init(_ record: DigitalCardRecord, isDefault: Bool, at date: Date, threshold: Int) {
        digitalCardID = record.digitalCardID
        tokenID = record.tokenID
        details = Details(
            scheme: record.scheme, maskedDPAN: record.maskedDPAN, lastFour: String(record.maskedDPAN.suffix(4)),
            fundingLastFour: record.fundingLastFour, expiry: record.expiry)
        state = record.state
        isDefaultCard = isDefault
        let keys = record.usableKeys(at: date)
        paymentKeyInfo = PaymentKeyInfo(
            remainingKeys: keys.count, nextExpiry: keys.map(\.validUntil).min(),
            needsReplenishment: keys.count < threshold)
        walletTransactionData = record.walletTransactionData
    }

    /// `DigitalCard(mastercard ••1234, active, 9 keys)`.
    public var description: String {
        "DigitalCard(\(details.scheme) \(details.maskedDPAN), \(state), \(paymentKeyInfo.remainingKeys) keys)"
    }
}
