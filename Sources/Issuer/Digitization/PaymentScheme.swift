/// The payment scheme of a digitized card: decides the card's behaviour (Visa qVSDC or Mastercard M/Chip).
public enum PaymentScheme: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Visa (token BIN range starting with 4).
    case visa
    /// Mastercard (token BIN range starting with 5 or 2).
    case mastercard

    /// The scheme of a PAN by its first digit; nil for other schemes.
    init?(pan digits: String) {
        switch digits.first {
        case "4": self = .visa
        case "5", "2": self = .mastercard
        default: return nil
        }
    }

    /// `visa` or `mastercard`.
    public var description: String { rawValue }
}
