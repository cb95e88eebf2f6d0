import EMV
import Foundation
import Issuer
import Testing

@Suite("Issuer token vault: provisioning, lookup, states, cryptograms")
struct TokenVaultTests {
    static let now = IssuerFixture.transactionDate

    static func vault() throws -> (TokenVault, InMemoryIssuerRepository) {
        let keys = try IssuerFixture.keys()
        let repository = try TestCards.repository(keys: keys)
        return (TokenVault(keys: keys, accounts: repository, tokens: repository), repository)
    }

    static func pan(_ behaviour: TestCard.Behaviour, _ scheme: TestCard.Scheme) throws -> PAN {
        try PAN(try #require(TestCards.card(behaviour, scheme)).pan)
    }

    @Test(
        "a DPAN is a fresh, valid PAN in the token range of the funding card's scheme, mapped back to the account",
        arguments: [TestCard.Scheme.visa, .mastercard])
    func provision(scheme: TestCard.Scheme) async throws {
        let (vault, _) = try Self.vault()
        let funding = try Self.pan(.approve, scheme)
        let first = try await vault.provision(fundingPAN: funding, requestor: "applePay", at: Self.now)
        let second = try await vault.provision(
            fundingPAN: funding, requestor: "wallet-1", at: Self.now.addingTimeInterval(60))
        let prefix = scheme == .visa ? IssuerKeys.testVisaTokenPrefix : IssuerKeys.testMastercardTokenPrefix
        for token in [first, second] {
            #expect(token.dpan.digits.hasPrefix(prefix))
            #expect(token.dpan.isLuhnValid && token.dpan.length == funding.length)
            #expect(token.dpan != funding)
            #expect(token.token.status == .active && token.token.lastATC == nil)
            #expect(token.token.expiry == (try ExpiryDate(year: 2029, month: 11)))
            #expect(try vault.dpan(of: token.token) == token.dpan)
            #expect(try await vault.fundingAccount(of: token.dpan)?.keyedPAN == vault.keys.keyedHash(of: funding))
        }
        #expect(first.dpan != second.dpan)
        #expect(try await vault.tokens(of: funding).map(\.requestor) == ["applePay", "wallet-1"])
        // Stored encrypted, described masked.
        #expect(!first.token.encryptedDPAN.hexString.contains(first.dpan.digits))
        #expect(!"\(first) \(first.token)".contains(first.dpan.digits))
        #expect("\(first.token)".contains(first.dpan.masked))
    }

    @Test("no token for an unknown or inactive account, or a scheme without a token range")
    func refusals() async throws {
        let (vault, _) = try Self.vault()
        await #expect(throws: IssuerError.unknownToken) {
            try await vault.provision(fundingPAN: try PAN("4761739001010010"), requestor: "applePay", at: Self.now)
        }
        await #expect(throws: IssuerError.unknownToken) {
            try await vault.provision(fundingPAN: try Self.pan(.lost, .visa), requestor: "applePay", at: Self.now)
        }
        let noRanges = TokenVault(keys: vault.keys, accounts: vault.accounts, tokens: vault.tokens, ranges: [])
        await #expect(throws: IssuerError.noTokenRange) {
            try await noRanges.provision(fundingPAN: try Self.pan(.approve, .visa), requestor: "x", at: Self.now)
        }
    }

    @Test("suspend and resume; a deleted token stays deleted")
    func states() async throws {
        let (vault, _) = try Self.vault()
        let token = try await vault.provision(fundingPAN: try Self.pan(.approve, .visa), requestor: "a", at: Self.now)
        #expect(try await vault.setStatus(.suspended, of: token.dpan).status == .suspended)
        #expect(try await vault.token(for: token.dpan)?.status == .suspended)
        #expect(try await vault.setStatus(.active, of: token.dpan).status == .active)
        #expect(try await vault.setStatus(.deleted, of: token.dpan).status == .deleted)
        await #expect(throws: IssuerError.unknownToken) { try await vault.setStatus(.active, of: token.dpan) }
        await #expect(throws: IssuerError.unknownToken) {
            try await vault.setStatus(.suspended, of: try PAN("4895370012345671"))
        }
    }

    @Test("the device's cryptogram uses the token key derived from the token range's IMK-AC")
    func cryptogram() async throws {
        let (vault, _) = try Self.vault()
        let token = try await vault.provision(fundingPAN: try Self.pan(.approve, .visa), requestor: "a", at: Self.now)
        let cryptogram = try vault.makeCryptogram(
            dpan: token.dpan, amount: 1_000, currency: .eur, atc: 3, unpredictableNumber: [1, 2, 3, 4], at: Self.now)
        let imk = try #require(vault.keys.masterKeys(forPAN: token.dpan.digits)).ac
        let key = try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: imk, pan: token.dpan.digits, psn: "00")
        #expect(try vault.cryptogramKey(for: token.dpan) == key)
        #expect(try cryptogram.verify(tokenKey: key, dpan: token.dpan.digits, amount: 1_000, currencyCode: 978))
        #expect(cryptogram.atc == 3)
        // The funding card's range is not a token range: its key is another.
        #expect(try vault.cryptogramKey(for: try Self.pan(.approve, .visa)) != key)
    }
}
