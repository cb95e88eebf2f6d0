/// What a reversal did.
public enum ReversalResult: Hashable, Sendable {
    /// The authorization's amount went back to the available balance.
    case reversed(AuthorizationRecord)
    /// The authorization was reversed before: acknowledged, nothing changed.
    case alreadyReversed(AuthorizationRecord)
    /// No authorization of this account has the reference.
    case notFound
}
