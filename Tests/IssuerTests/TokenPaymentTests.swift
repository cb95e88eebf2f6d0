import ContactlessTesting
import EMV
import Foundation
import ISO8583
import Issuer
import Testing

@Suite("Issuer authorization of token payments (DPAN + online payment cryptogram)")
struct TokenPaymentTests {
    static let now = IssuerFixture.transactionDate

    /// A host with the test accounts and one token of `behaviour`'s card.
    static func setUp(_ behaviour: TestCard.Behaviour = .approve, _ scheme: TestCard.Scheme = .visa) async throws
        -> (IssuerHost, TokenVault, TokenVault.ProvisionedToken, InMemoryIssuerRepository)
    {
        let keys = try IssuerFixture.keys()
        let repository = try TestCards.repository(keys: keys)
        let host = IssuerHost(keys: keys, repository: repository)
        let vault = try #require(host.tokenVault)
        let funding = try PAN(try #require(TestCards.card(behaviour, scheme)).pan)
        let token = try await vault.provision(fundingPAN: funding, requestor: "applePay", at: now)
        return (host, vault, token, repository)
    }

    /// The gateway's 0100 for the token, with a cryptogram for `cryptogramAmount` (the amount by default).
    static func request(
        _ vault: TokenVault, _ token: TokenVault.ProvisionedToken, amount: Int = 1_000, cryptogramAmount: Int? = nil,
        atc: UInt16 = 1, stan: Int = 1, expiry: ExpiryDate?? = .none, cryptogramTime: Date = now
    ) throws -> ISO8583Message {
        let cryptogram = try vault.makeCryptogram(
            dpan: token.dpan, amount: cryptogramAmount ?? amount, currency: .eur, atc: atc, at: cryptogramTime)
        let message = AuthorizationRequest(
            card: AuthorizationRequest.tokenCard(dpan: token.dpan, expiry: expiry ?? token.token.expiry),
            amount: amount, currency: .eur, systemTraceAuditNumber: stan,
            retrievalReferenceNumber: String(format: "%012d", stan), terminalID: "ECOM0001",
            merchantID: "MERCHANT0000001", transmissionDate: now)
        return try message.tokenMessage(TokenPaymentData(cryptogram: cryptogram.bytes, eci: "07"))
    }

    static func balance(
        _ repository: InMemoryIssuerRepository, _ vault: TokenVault, _ token: TokenVault.ProvisionedToken
    )
        async throws -> Int?
    {
        try await repository.account(token.token.fundingKeyedPAN)?.availableBalance
    }

    @Test(
        "an approved token payment holds the amount on the funding account",
        arguments: [TestCard.Scheme.visa, .mastercard])
    func approve(scheme: TestCard.Scheme) async throws {
        let (host, vault, token, repository) = try await Self.setUp(.approve, scheme)
        let request = try Self.request(vault, token, amount: 2_500)
        #expect(request[.posEntryMode]?.text == "810")
        #expect(request[.iccData] == nil && request[.track2] == nil)
        let response = try #require(await host.handle(request, at: Self.now))
        #expect(response.mti == .authorizationResponse)
        #expect(response.responseCode == .approved)
        #expect(response[.authorizationCode]?.text?.count == 6)
        #expect(response[.pan]?.text == token.dpan.digits)
        #expect(try await Self.balance(repository, vault, token) == TestCards.balance - 2_500)
        #expect(try await vault.token(for: token.dpan)?.lastATC == 1)
        // Field 48 is never echoed.
        #expect(response[.additionalData] == nil)
    }

    @Test("a replayed cryptogram, or an older ATC, is refused with 63")
    func replay() async throws {
        let (host, vault, token, repository) = try await Self.setUp()
        let request = try Self.request(vault, token, atc: 5)
        #expect(await host.handle(request, at: Self.now)?.responseCode == .approved)
        var again = request
        again[.systemTraceAuditNumber] = "000002"
        again[.retrievalReferenceNumber] = "000000000002"
        #expect(await host.handle(again, at: Self.now)?.responseCode == .cryptogramReplayed)
        let older = try Self.request(vault, token, atc: 4, stan: 3)
        #expect(await host.handle(older, at: Self.now)?.responseCode == .cryptogramReplayed)
        let next = try Self.request(vault, token, atc: 6, stan: 4)
        #expect(await host.handle(next, at: Self.now)?.responseCode == .approved)
        #expect(try await Self.balance(repository, vault, token) == TestCards.balance - 2_000)
    }

    @Test(
        "a cryptogram for another amount, a tampered one or one outside the time window gets 88; the ATC is not spent")
    func cryptogramFailures() async throws {
        let (host, vault, token, _) = try await Self.setUp()
        let otherAmount = try Self.request(vault, token, amount: 1_000, cryptogramAmount: 999)
        #expect(await host.handle(otherAmount, at: Self.now)?.responseCode == .cryptogramFailure)
        let late = try Self.request(vault, token, cryptogramTime: Self.now.addingTimeInterval(-7_200))
        #expect(await host.handle(late, at: Self.now)?.responseCode == .cryptogramFailure)
        var tampered = try Self.request(vault, token)
        var data = try #require(tampered.tokenPaymentData)
        data.cryptogram[15] ^= 0x01
        try tampered.setTokenPaymentData(data)
        #expect(await host.handle(tampered, at: Self.now)?.responseCode == .cryptogramFailure)
        var garbage = try Self.request(vault, token)
        garbage[.additionalData] = "4304AAAA"
        #expect(await host.handle(garbage, at: Self.now)?.responseCode == .cryptogramFailure)
        #expect(try await vault.token(for: token.dpan)?.lastATC == nil)
        #expect(await host.handle(try Self.request(vault, token), at: Self.now)?.responseCode == .approved)
    }

    @Test("suspended (05), deleted or unknown (14), and wrong expiry (54) tokens are declined")
    func tokenStates() async throws {
        let (host, vault, token, _) = try await Self.setUp()
        let wrongExpiry = try Self.request(vault, token, atc: 1, expiry: try ExpiryDate(year: 2031, month: 1))
        #expect(await host.handle(wrongExpiry, at: Self.now)?.responseCode == .expiredCard)
        try await vault.setStatus(.suspended, of: token.dpan)
        #expect(await host.handle(try Self.request(vault, token, atc: 2), at: Self.now)?.responseCode == .doNotHonour)
        try await vault.setStatus(.active, of: token.dpan)
        #expect(await host.handle(try Self.request(vault, token, atc: 3), at: Self.now)?.responseCode == .approved)
        try await vault.setStatus(.deleted, of: token.dpan)
        #expect(
            await host.handle(try Self.request(vault, token, atc: 4), at: Self.now)?.responseCode == .invalidCardNumber)
        // A DPAN in the token range that the vault never issued: the cryptogram cannot be for it.
        var unknown = try Self.request(vault, token, atc: 5)
        unknown[.pan] = "4895370012345671"
        #expect(await host.handle(unknown, at: Self.now)?.responseCode == .cryptogramFailure)
    }

    @Test("the funding account decides: insufficient funds (51); strong authentication is the device's (approved)")
    func fundingAccount() async throws {
        let (host, vault, token, _) = try await Self.setUp(.insufficientFunds)
        #expect(await host.handle(try Self.request(vault, token), at: Self.now)?.responseCode == .insufficientFunds)
        let (scaHost, scaVault, scaToken, _) = try await Self.setUp(.onlinePINRequired)
        #expect(
            await scaHost.handle(try Self.request(scaVault, scaToken), at: Self.now)?.responseCode == .approved)
    }

    @Test("a 0400 with the DPAN reverses the token payment on the funding account, once")
    func reversal() async throws {
        let (host, vault, token, repository) = try await Self.setUp()
        let request = try Self.request(vault, token, amount: 3_000)
        #expect(await host.handle(request, at: Self.now)?.responseCode == .approved)
        let reversal = try AuthorizationRequest.reversal(of: request)
        #expect(reversal[.additionalData] == nil)
        #expect(await host.handle(reversal, at: Self.now)?.responseCode == .approved)
        #expect(try await Self.balance(repository, vault, token) == TestCards.balance)
        #expect(await host.handle(reversal, at: Self.now)?.responseCode == .approved)
        #expect(try await Self.balance(repository, vault, token) == TestCards.balance)
    }

    @Test("a host without a vault, or a token request without its fields, answers 14 or 30")
    func noVault() async throws {
        let (_, vault, token, repository) = try await Self.setUp()
        let plain = IssuerHost(keys: vault.keys, repository: repository, tokenVault: nil)
        #expect(await plain.handle(try Self.request(vault, token), at: Self.now)?.responseCode == .invalidCardNumber)
        var missing = try Self.request(vault, token)
        missing[.amount] = nil
        #expect(await plain.handle(missing, at: Self.now)?.responseCode == .formatError)
    }
}
