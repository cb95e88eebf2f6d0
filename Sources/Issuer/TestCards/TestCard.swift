import EMV
public import ISO8583

/// One test card of ``TestCards``: a public test PAN (like Stripe's `4000 0000 0000 9995`) with a fixed behaviour.
///
/// The card itself is the shipped Visa or Mastercard test profile of `CardEmulator` with this PAN (same issuer
/// master keys, ICC certificate re-signed), so a real tap produces a genuine ARQC that the host verifies.
public struct TestCard: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The card scheme, which picks the profile the card is made from.
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        /// From `CardProfile.visaTest` (qVSDC, CVN 18, ARPC method 2).
        case visa
        /// From `CardProfile.mastercardTest` (M/Chip, CVN 20, ARPC method 1).
        case mastercard
    }

    /// What the issuer host does with the card's authorizations.
    public enum Behaviour: String, Sendable, Hashable, CaseIterable {
        /// Approves (`00`) while the balance lasts; PIN 1234 when a PIN is asked.
        case approve
        /// Declines with `51`: the balance is 5.00 EUR, below any amount over it.
        case insufficientFunds
        /// Declines with `41`: reported lost.
        case lost
        /// Declines with `43`: reported stolen.
        case stolen
        /// Declines with `54`: the account is expired (the card's own expiry is not, so the tap goes online).
        case expired
        /// Declines with `05`: blocked by the issuer.
        case doNotHonour
        /// Answers `65` (online PIN required) without a PIN block; approves with PIN 1234.
        case onlinePINRequired
        /// Wants online PIN and refuses every PIN: `55`, the third wrong PIN in a row `75`.
        case incorrectPIN
        /// Never answers: the host returns nil and the acquirer times out.
        case issuerTimeout

        /// The documented response code: the first answer without a PIN block (nil: no answer).
        public var responseCode: ResponseCode? {
            switch self {
            case .approve: .approved
            case .insufficientFunds: .insufficientFunds
            case .lost: .lostCard
            case .stolen: .stolenCard
            case .expired: .expiredCard
            case .doNotHonour: .doNotHonour
            case .onlinePINRequired, .incorrectPIN: .pinRequired
            case .issuerTimeout: nil
            }
        }
    }

    /// The PAN, public test data.
    public let pan: String
    /// The scheme.
    public let scheme: Scheme
    /// The behaviour.
    public let behaviour: Behaviour

    /// Creates a catalogue entry.
    public init(pan: String, scheme: Scheme, behaviour: Behaviour) {
        self.pan = pan
        self.scheme = scheme
        self.behaviour = behaviour
    }

    /// Scheme, behaviour and masked PAN: test PANs are public, but logs still follow the masking rule.
    public var description: String {
        let masked = (try? PAN(pan).masked) ?? "invalid PAN"
        return "TestCard(\(scheme.rawValue), \(behaviour.rawValue), \(masked))"
    }

    /// The masked PAN, scheme and behaviour: `dump` follows the masking rule too.
    public var customMirror: Mirror {
        let masked = (try? PAN(pan).masked) ?? "invalid PAN"
        return Mirror(self, children: ["pan": masked, "scheme": scheme, "behaviour": behaviour], displayStyle: .struct)
    }
}
