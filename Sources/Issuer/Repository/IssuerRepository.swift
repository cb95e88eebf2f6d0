public import ISO8583
/// Where the issuer host keeps accounts and authorizations: in memory now, SQLite and PostgreSQL in the gateway.
///
/// Each method is one unit of work: a durable implementation runs it in one database transaction (the account row
/// locked, `SELECT … FOR UPDATE`), so two authorizations of one card never interleave between reading the last
/// ATC or balance and writing it, and a reversal restores a balance exactly once.
public protocol IssuerRepository: Sendable {
    /// Adds an account.
    /// - Throws: ``IssuerError/duplicateAccount`` when its keyed PAN hash is taken; ``IssuerError/storageFailed``.
    func insert(_ account: CardAccount) async throws(IssuerError)

    /// The account with this keyed PAN hash; nil when there is none.
    func account(_ keyedPAN: KeyedPANHash) async throws(IssuerError) -> CardAccount?

    /// Runs `decide` on the account with this keyed PAN hash, then stores the changed account and the decision's
    /// record together; nil (nothing run) when there is no such account.
    func authorize(
        _ keyedPAN: KeyedPANHash, _ decide: @Sendable (inout CardAccount) -> AuthorizationDecision
    ) async throws(IssuerError) -> AuthorizationDecision?

    /// Reverses the authorization with `reference` of the account `keyedPAN`: marks it reversed and adds its amount
    /// back to the available balance, once; later calls report ``ReversalResult/alreadyReversed(_:)``.
    func reverse(_ reference: AuthorizationReference, of keyedPAN: KeyedPANHash) async throws(IssuerError)
        -> ReversalResult

    /// The approved authorization with `reference`, if any (reversed or not).
    func authorization(_ reference: AuthorizationReference) async throws(IssuerError) -> AuthorizationRecord?
}
