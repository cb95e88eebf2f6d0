/// Where a data element comes from.
public enum DataSource: Hashable, Sendable, CustomStringConvertible {
    /// The card (ICC).
    case card
    /// The terminal or reader, from its configuration or the transaction.
    case terminal
    /// The issuer, in its authorisation response.
    case issuer
    /// The kernel itself (contactless kernels' internal and outcome data).
    case kernel

    /// `card`, `terminal`, `issuer` or `kernel`.
    public var description: String {
        switch self {
        case .card: "card"
        case .terminal: "terminal"
        case .issuer: "issuer"
        case .kernel: "kernel"
        }
    }
}
