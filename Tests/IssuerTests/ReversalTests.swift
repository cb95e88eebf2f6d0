import CardEmulator
import EMV
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

@Suite("Reversals")
struct ReversalTests {
    @Test("a reversal restores the balance once; a repeat is acknowledged without effect")
    func reverseOnce() async throws {
        let keys = try IssuerFixture.keys()
        let card = try #require(TestCards.card(.approve, .mastercard))
        let host = IssuerHost(keys: keys, repository: try TestCards.repository(keys: keys))
        let keyedPAN = keys.keyedHash(of: try PAN(card.pan))
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let request = try IssuerFixture.authorizationRequest(data, minorUnits: 1_000, stan: 7)
        #expect(await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .approved)
        #expect(try await host.repository.account(keyedPAN)?.availableBalance == TestCards.balance - 1_000)

        let reversal = try IssuerFixture.reversal(of: request)
        for _ in 0..<3 {
            let response = try #require(await host.handle(reversal, at: IssuerFixture.transactionDate))
            #expect(response.mti == .reversalResponse)
            #expect(response.responseCode == .approved)
            #expect(try await host.repository.account(keyedPAN)?.availableBalance == TestCards.balance)
        }
        #expect(
            try await host.repository.reverse(
                AuthorizationReference(
                    systemTraceAuditNumber: "000007", retrievalReferenceNumber: "000000000007", terminalID: "TERM0001"),
                of: keyedPAN
            ).isAlreadyReversed)
    }

    @Test("a reversal of an unknown or declined authorization, or of another card, gets 25")
    func unknownOriginal() async throws {
        let host = try IssuerFixture.host()
        let card = try #require(TestCards.card(.lost, .visa))
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let request = try IssuerFixture.authorizationRequest(data, stan: 9)
        #expect(await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .lostCard)
        let reversal = try IssuerFixture.reversal(of: request)
        #expect(await host.handle(reversal, at: IssuerFixture.transactionDate)?.responseCode == .originalNotFound)

        var otherCard = reversal
        otherCard[.pan] = .text(try #require(TestCards.card(.approve, .visa)).pan)
        #expect(await host.handle(otherCard, at: IssuerFixture.transactionDate)?.responseCode == .originalNotFound)
        var noReference = reversal
        noReference[.retrievalReferenceNumber] = nil
        #expect(await host.handle(noReference, at: IssuerFixture.transactionDate)?.responseCode == .formatError)
    }
}

extension ReversalResult {
    var isAlreadyReversed: Bool {
        if case .alreadyReversed = self { return true }
        return false
    }
}

@Suite("Balance under concurrency")
struct BalanceTests {
    @Test("concurrent authorizations never spend the balance twice; a reversal frees it again")
    func concurrentAuthorizations() async throws {
        let card = try #require(TestCards.card(.insufficientFunds, .visa))  // 5.00 EUR
        let host = try IssuerFixture.host()
        let channel = try IssuerFixture.channel(card)
        var requests: [ISO8583Message] = []
        for stan in 1...4 {
            let data = try await IssuerFixture.tap(channel, minorUnits: 300)
            requests.append(try IssuerFixture.authorizationRequest(data, minorUnits: 300, stan: stan))
        }
        // Results come back in completion order: keep each with its request's index.
        let codes = await withTaskGroup(of: (Int, ResponseCode?).self) { group in
            for (index, request) in requests.prefix(3).enumerated() {
                group.addTask { (index, await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode) }
            }
            var codes = [ResponseCode?](repeating: nil, count: 3)
            for await (index, code) in group { codes[index] = code }
            return codes
        }
        // Later ATCs may overtake earlier ones, which are then replays; exactly one 3.00 fits in 5.00.
        #expect(codes.filter { $0 == .approved }.count == 1)
        #expect(codes.allSatisfy { [.approved, .insufficientFunds, .cryptogramReplayed].contains($0) })
        let approved = try #require(
            zip(requests, codes).first { $0.1 == .approved }?.0)
        let reversal = await host.handle(try IssuerFixture.reversal(of: approved), at: IssuerFixture.transactionDate)
        #expect(reversal?.responseCode == .approved)
        #expect(await host.handle(requests[3], at: IssuerFixture.transactionDate)?.responseCode == .approved)
    }
}
