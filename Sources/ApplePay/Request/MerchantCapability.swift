/// What the merchant's payment processing supports, as PassKit's `PKMerchantCapability` (same bits).
///
/// JSON holds an array of names: `["threeDSecure", "emv", "credit", "debit", "instantFundsOut"]`.
public struct MerchantCapability: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible {
    /// PassKit's bit mask.
    public let rawValue: UInt

    /// Capabilities from PassKit's bit mask.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// 3-D Secure: the token carries an online payment cryptogram (required of every request).
    public static let threeDSecure = MerchantCapability(rawValue: 1 << 0)
    /// EMV: the token carries EMV data (China UnionPay cards).
    public static let emv = MerchantCapability(rawValue: 1 << 1)
    /// Credit cards are accepted.
    public static let credit = MerchantCapability(rawValue: 1 << 2)
    /// Debit (and prepaid) cards are accepted.
    public static let debit = MerchantCapability(rawValue: 1 << 3)
    /// The merchant disburses funds with Instant Funds Out.
    public static let instantFundsOut = MerchantCapability(rawValue: 1 << 7)

    /// Each capability with its JSON name, in bit order.
    public static let named: [(name: String, capability: MerchantCapability)] = [
        ("threeDSecure", .threeDSecure), ("emv", .emv), ("credit", .credit), ("debit", .debit),
        ("instantFundsOut", .instantFundsOut),
    ]

    /// The names of the capabilities in the set, in bit order.
    public var names: [String] { Self.named.filter { contains($0.capability) }.map(\.name) }

    /// Decodes an array of names; an unknown name is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        var capabilities: MerchantCapability = []
        for name in try container.decode([String].self) {
            guard let entry = Self.named.first(where: { $0.name == name }) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "unknown merchant capability \"\(name)\"")
            }
            capabilities.insert(entry.capability)
        }
        self = capabilities
    }

    /// Encodes the array of names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(names)
    }

    /// The names joined by commas, e.g. `threeDSecure,credit`.
    public var description: String { names.joined(separator: ",") }
}
