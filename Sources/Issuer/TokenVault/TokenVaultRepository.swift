/// Where the issuer's token vault keeps device tokens: in memory (``InMemoryIssuerRepository``) or in SQL (the
/// gateway's `SQLIssuerRepository`, table `issuer_device_tokens`).
///
/// ``updateToken(_:_:)`` is one unit of work (the row locked), so two payments with one token never both pass
/// the ATC check.
public protocol TokenVaultRepository: Sendable {
    /// Adds a token.
    /// - Throws: ``IssuerError/duplicateAccount`` when its keyed DPAN hash is taken; ``IssuerError/storageFailed``.
    func insertToken(_ token: DeviceToken) async throws(IssuerError)

    /// The token with this keyed DPAN hash; nil when there is none.
    func token(_ keyedDPAN: KeyedPANHash) async throws(IssuerError) -> DeviceToken?

    /// The tokens of a funding account, oldest first.
    func tokens(funding keyedPAN: KeyedPANHash) async throws(IssuerError) -> [DeviceToken]

    /// Runs `change` on the token and stores it, in one unit; nil (nothing run) when there is no such token.
    func updateToken<Result: Sendable>(
        _ keyedDPAN: KeyedPANHash, _ change: @Sendable (inout DeviceToken) -> Result
    ) async throws(IssuerError) -> Result?
}
