extension InMemoryIssuerRepository: TokenVaultRepository {
    /// Adds a token.
    public func insertToken(_ token: DeviceToken) throws(IssuerError) {
        guard tokens[token.keyedDPAN] == nil else {
            throw IssuerError(.duplicateAccount, "a token has \(token.keyedDPAN) already")
        }
        tokens[token.keyedDPAN] = token
    }

    /// The token with this keyed DPAN hash.
    public func token(_ keyedDPAN: KeyedPANHash) -> DeviceToken? {
        tokens[keyedDPAN]
    }

    /// The tokens of a funding account, oldest first.
    public func tokens(funding keyedPAN: KeyedPANHash) -> [DeviceToken] {
        tokens.values.filter { $0.fundingKeyedPAN == keyedPAN }.sorted { $0.provisionedAt < $1.provisionedAt }
    }

    /// Runs `change` on the token and keeps the result.
    public func updateToken<Result: Sendable>(
        _ keyedDPAN: KeyedPANHash, _ change: @Sendable (inout DeviceToken) -> Result
    ) -> Result? {
        guard var token = tokens[keyedDPAN] else { return nil }
        let result = change(&token)
        tokens[keyedDPAN] = token
        return result
    }
}
