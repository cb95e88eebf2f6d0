/// A token's state at the issuer, as the wallet changes it.
public enum TokenStatus: String, Sendable, Hashable, CaseIterable {
    /// Pays.
    case active
    /// Paused; may be resumed.
    case suspended
    /// Deleted for good.
    case deleted
}
