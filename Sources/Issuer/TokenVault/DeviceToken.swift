public import EMV
public import Foundation

/// A device account number (DPAN) in the issuer's token vault: a token of a funding card account, for one wallet,
/// with its own expiry, state and transaction counter.
///
/// Stored like a card account: found by the keyed hash of the DPAN, the DPAN AES-GCM encrypted under the PAN
/// encryption key; the funding account only by its keyed PAN hash. The description never shows either number.
public struct DeviceToken: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Whether the token may pay.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Pays.
        case active
        /// Paused by the cardholder or the issuer (answered `05`); may be resumed.
        case suspended
        /// Deleted for good (answered `14`, as an unknown card).
        case deleted
    }

    /// The lookup key: the keyed hash of the DPAN.
    public let keyedDPAN: KeyedPANHash
    /// The DPAN under AES-256-GCM, authenticated with its keyed hash.
    public let encryptedDPAN: [UInt8]
    /// The DPAN's BIN and last four, for display.
    public let maskedDPAN: String
    /// The keyed PAN hash of the funding card account.
    public let fundingKeyedPAN: KeyedPANHash
    /// The token's own expiry.
    public let expiry: ExpiryDate
    /// The wallet or token requestor the token was provisioned for (`applePay`, a wallet id).
    public let requestor: String
    /// When the vault provisioned it.
    public let provisionedAt: Date
    /// The token's state.
    public var status: Status
    /// The highest ATC of a cryptogram the issuer accepted; nil before the first.
    public var lastATC: UInt16?

    /// Creates a token from stored parts; ``TokenVault/provision(fundingPAN:requestor:at:)`` makes a new one.
    public init(
        keyedDPAN: KeyedPANHash, encryptedDPAN: [UInt8], maskedDPAN: String, fundingKeyedPAN: KeyedPANHash,
        expiry: ExpiryDate, requestor: String, provisionedAt: Date, status: Status = .active, lastATC: UInt16? = nil
    ) {
        self.keyedDPAN = keyedDPAN
        self.encryptedDPAN = encryptedDPAN
        self.maskedDPAN = maskedDPAN
        self.fundingKeyedPAN = fundingKeyedPAN
        self.expiry = expiry
        self.requestor = requestor
        self.provisionedAt = provisionedAt
        self.status = status
        self.lastATC = lastATC
    }

    /// `DeviceToken(489537******1234, active, applePay)`.
    public var description: String { "DeviceToken(\(maskedDPAN), \(status.rawValue), \(requestor))" }

    /// The masked DPAN, status and requestor only.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["maskedDPAN": maskedDPAN, "status": status, "requestor": requestor],
            displayStyle: .struct)
    }
}
