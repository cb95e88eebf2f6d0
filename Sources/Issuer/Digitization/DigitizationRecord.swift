public import Foundation

/// A digitization as the issuer keeps it: its one-time code only as a keyed hash, the tries left, its state.
public struct DigitizationRecord: Sendable, Hashable, CustomStringConvertible {
    /// Where the digitization is.
    public enum State: String, Sendable, Hashable {
        /// Waiting for the one-time code.
        case pending
        /// Voided (too many wrong codes, or the code expired); a new eligibility check starts over.
        case void
        /// The identity check passed and the token is provisioned.
        case completed
    }

    /// The digitization's id.
    public let id: String
    /// The eligibility answer it continues.
    public let eligibilityID: String
    /// HMAC-SHA256 of the code under the issuer's PAN hash key: the code itself is never stored.
    public let codeHash: [UInt8]
    /// When the code lapses.
    public let codeValidUntil: Date
    /// Wrong codes still allowed before the digitization is void.
    public var triesLeft: Int
    /// The state.
    public var state: State
    /// The token, once completed.
    public var tokenID: String?

    /// Creates a record.
    public init(
        id: String, eligibilityID: String, codeHash: [UInt8], codeValidUntil: Date, triesLeft: Int,
        state: State = .pending, tokenID: String? = nil
    ) {
        self.id = id
        self.eligibilityID = eligibilityID
        self.codeHash = codeHash
        self.codeValidUntil = codeValidUntil
        self.triesLeft = triesLeft
        self.state = state
        self.tokenID = tokenID
    }

    /// The id, state and tries left; never the code hash.
    public var description: String { "DigitizationRecord(\(id), \(state.rawValue), \(triesLeft) tries left)" }
}
