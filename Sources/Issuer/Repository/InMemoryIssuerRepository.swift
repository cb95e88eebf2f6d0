public import ISO8583
/// An ``IssuerRepository`` in process memory, for tests, demos and the embedded host; an actor, so each method is
/// one atomic unit.
public actor InMemoryIssuerRepository: IssuerRepository {
    private var accounts: [KeyedPANHash: CardAccount] = [:]
    private var authorizations: [AuthorizationReference: AuthorizationRecord] = [:]
    /// The token vault's rows (`InMemoryIssuerRepository+TokenVault.swift`).
    var tokens: [KeyedPANHash: DeviceToken] = [:]

    /// An empty repository.
    public init() {}

    /// A repository holding `accounts`.
    /// - Throws: ``IssuerError/duplicateAccount`` when two share a keyed PAN hash.
    public init(accounts: [CardAccount]) throws(IssuerError) {
        for account in accounts {
            guard self.accounts.updateValue(account, forKey: account.keyedPAN) == nil else {
                throw IssuerError(.duplicateAccount, "two accounts have \(account.keyedPAN)")
            }
        }
    }

    /// Adds an account.
    public func insert(_ account: CardAccount) throws(IssuerError) {
        guard accounts[account.keyedPAN] == nil else {
            throw IssuerError(.duplicateAccount, "an account has \(account.keyedPAN) already")
        }
        accounts[account.keyedPAN] = account
    }

    /// The account with this keyed PAN hash.
    public func account(_ keyedPAN: KeyedPANHash) -> CardAccount? {
        accounts[keyedPAN]
    }

    /// Runs `decide` on the account and keeps the result.
    public func authorize(
        _ keyedPAN: KeyedPANHash, _ decide: @Sendable (inout CardAccount) -> AuthorizationDecision
    ) -> AuthorizationDecision? {
        guard var account = accounts[keyedPAN] else { return nil }
        let decision = decide(&account)
        accounts[keyedPAN] = account
        if let record = decision.record { authorizations[record.reference] = record }
        return decision
    }

    /// Reverses an authorization once.
    public func reverse(_ reference: AuthorizationReference, of keyedPAN: KeyedPANHash) -> ReversalResult {
        guard var record = authorizations[reference], record.keyedPAN == keyedPAN else { return .notFound }
        guard !record.reversed else { return .alreadyReversed(record) }
        record.reversed = true
        authorizations[reference] = record
        accounts[keyedPAN]?.availableBalance += record.amount
        return .reversed(record)
    }

    /// The approved authorization with `reference`, if any.
    public func authorization(_ reference: AuthorizationReference) -> AuthorizationRecord? {
        authorizations[reference]
    }
}
