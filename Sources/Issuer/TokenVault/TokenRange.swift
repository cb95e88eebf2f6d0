/// Where the vault puts the device account numbers of one scheme: funding PANs starting with
/// ``fundingPrefix`` get DPANs starting with ``tokenPrefix``.
///
/// The issuer's ``IssuerKeys`` must hold master keys for the token prefix: the per-token cryptogram keys derive
/// from its IMK-AC.
public struct TokenRange: Sendable, Hashable, CustomStringConvertible {
    /// The funding PANs' leading digits (`4` for Visa, `5` for Mastercard, or a longer BIN).
    public let fundingPrefix: String
    /// The DPANs' leading digits: a token BIN of the same scheme.
    public let tokenPrefix: String

    /// Creates a range.
    public init(fundingPrefix: String, tokenPrefix: String) {
        self.fundingPrefix = fundingPrefix
        self.tokenPrefix = tokenPrefix
    }

    /// The test token BIN ranges: Visa `489537`, Mastercard `520473` (keys in ``IssuerKeys/test``).
    public static let test: [TokenRange] = [
        TokenRange(fundingPrefix: "4", tokenPrefix: IssuerKeys.testVisaTokenPrefix),
        TokenRange(fundingPrefix: "5", tokenPrefix: IssuerKeys.testMastercardTokenPrefix),
    ]

    /// `4 → 489537`.
    public var description: String { "\(fundingPrefix) → \(tokenPrefix)" }
}
