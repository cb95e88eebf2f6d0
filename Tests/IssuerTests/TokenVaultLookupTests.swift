import EMV
import Foundation
import Issuer
import Synchronization
import Testing

@Suite("Token vault: which PANs are looked up")
struct TokenVaultLookupTests {
    /// The in-memory vault, counting how often a token is looked up.
    final class CountingTokens: TokenVaultRepository {
        let base: InMemoryIssuerRepository
        let lookups = Atomic<Int>(0)

        init(_ base: InMemoryIssuerRepository) { self.base = base }

        func insertToken(_ token: DeviceToken) async throws(IssuerError) { try await base.insertToken(token) }

        func token(_ keyedDPAN: KeyedPANHash) async throws(IssuerError) -> DeviceToken? {
            lookups.add(1, ordering: .relaxed)
            return try await base.token(keyedDPAN)
        }

        func tokens(funding keyedPAN: KeyedPANHash) async throws(IssuerError) -> [DeviceToken] {
            try await base.tokens(funding: keyedPAN)
        }

        func updateToken<Result: Sendable>(
            _ keyedDPAN: KeyedPANHash, _ change: @Sendable (inout DeviceToken) -> Result
        ) async throws(IssuerError) -> Result? {
            try await base.updateToken(keyedDPAN, change)
        }
    }

    @Test("a card PAN outside the token BINs is no token and costs no lookup; a DPAN inside them is found")
    func lookupsOnlyInsideTokenRanges() async throws {
        let keys = try IssuerFixture.keys()
        let repository = try TestCards.repository(keys: keys)
        let tokens = CountingTokens(repository)
        let vault = TokenVault(keys: keys, accounts: repository, tokens: tokens)
        let card = try #require(TestCards.card(.approve, .visa))
        let provisioned = try await vault.provision(
            fundingPAN: try PAN(card.pan), requestor: "applePay", at: IssuerFixture.transactionDate)

        #expect(try await vault.token(for: try PAN(card.pan)) == nil)
        #expect(tokens.lookups.load(ordering: .relaxed) == 0)
        #expect(try await vault.token(for: provisioned.dpan) != nil)
        #expect(tokens.lookups.load(ordering: .relaxed) == 1)
        // A PAN in a token BIN that the vault never issued is looked up, and is no token.
        let unissued = try PAN(IssuerKeys.testVisaTokenPrefix + String(repeating: "0", count: 10), requireLuhn: false)
        #expect(try await vault.token(for: unissued) == nil)
        #expect(tokens.lookups.load(ordering: .relaxed) == 2)
    }
}
