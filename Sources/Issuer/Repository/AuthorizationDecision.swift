/// What deciding on one account produced: the result and, when approved, the authorization to keep for a reversal.
///
/// ``IssuerRepository/authorize(_:_:)`` stores the account changes and the record in one unit.
public struct AuthorizationDecision: Hashable, Sendable {
    /// The result, answered in field 39.
    public var result: AuthorizationResult
    /// The authorization to record; set when approved.
    public var record: AuthorizationRecord?

    /// Creates a decision.
    public init(result: AuthorizationResult, record: AuthorizationRecord? = nil) {
        self.result = result
        self.record = record
    }
}
