import CardEmulator
import EMV
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

/// Every test card, tapped for real: card applet and reader kernel on the loopback, 0100 to the host, the
/// documented answer back.
@Suite("Test cards")
struct TestCardTests {
    @Test("a tap with each test card gets its documented response", arguments: TestCards.all)
    func documentedResponse(card: TestCard) async throws {
        let host = try IssuerFixture.host()
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let request = try IssuerFixture.authorizationRequest(data)
        let response = await host.handle(request, at: IssuerFixture.transactionDate)
        guard let expected = card.behaviour.responseCode else {
            #expect(response == nil, "the timeout card gets no answer")
            return
        }
        let answer = try #require(response)
        #expect(answer.mti == .authorizationResponse)
        #expect(answer.responseCode == expected)
        #expect((answer[.authorizationCode] != nil) == (expected == .approved))
        #expect(answer[.systemTraceAuditNumber] == request[.systemTraceAuditNumber])
        #expect(answer[.track2] == nil && answer[.pinBlock] == nil)
    }

    @Test("the catalogue: distinct valid PANs in the test BIN ranges, every behaviour on both schemes")
    func catalogue() throws {
        #expect(Set(TestCards.all.map(\.pan)).count == TestCards.all.count)
        for card in TestCards.all {
            #expect(PAN.isLuhnValid(card.pan))
            #expect(card.pan.hasPrefix(card.scheme == .visa ? TestCards.visaPrefix : TestCards.mastercardPrefix))
            #expect(!card.description.contains(card.pan))
        }
        for behaviour in TestCard.Behaviour.allCases {
            for scheme in TestCard.Scheme.allCases {
                #expect(TestCards.card(behaviour, scheme) != nil)
            }
        }
        // The approving cards are the shipped profiles themselves.
        #expect(TestCards.card(.approve, .visa)?.pan == (try CardProfile.visaTest).pan)
        #expect(TestCards.card(.approve, .mastercard)?.pan == (try CardProfile.mastercardTest).pan)
    }

    @Test("insufficient funds is about the amount: 5.00 EUR is approved, 5.01 is not")
    func insufficientFundsBoundary() async throws {
        let card = try #require(TestCards.card(.insufficientFunds, .visa))
        let host = try IssuerFixture.host()
        let channel = try IssuerFixture.channel(card)
        let over = try await IssuerFixture.tap(channel, minorUnits: 501)
        let declined = await host.handle(
            try IssuerFixture.authorizationRequest(over, minorUnits: 501, stan: 1), at: IssuerFixture.transactionDate)
        #expect(declined?.responseCode == .insufficientFunds)
        let exact = try await IssuerFixture.tap(channel, minorUnits: 500)
        let approved = await host.handle(
            try IssuerFixture.authorizationRequest(exact, minorUnits: 500, stan: 2), at: IssuerFixture.transactionDate)
        #expect(approved?.responseCode == .approved)
    }

    @Test("load-test cards: valid, distinct PANs in the test BIN ranges, none a catalogue card's")
    func loadTestCards() throws {
        let cards = TestCards.loadTestCards
        #expect(cards.count == 2 * TestCards.loadTestCardsPerScheme)
        #expect(Set(cards.map(\.pan)).count == cards.count)
        #expect(Set(cards.map(\.pan)).isDisjoint(with: TestCards.all.map(\.pan)))
        for card in cards {
            #expect(PAN.isLuhnValid(card.pan))
            #expect(card.pan.hasPrefix(card.scheme == .visa ? TestCards.visaPrefix : TestCards.mastercardPrefix))
            #expect(card.behaviour == .approve)
        }
    }

    @Test("seeding inserts every missing account once and keeps existing ones")
    func seeding() async throws {
        let keys = try IssuerFixture.keys()
        let repository = InMemoryIssuerRepository()
        try await TestCards.seed(repository, keys: keys)
        let first = try #require(TestCards.all.first)
        let keyed = keys.keyedHash(of: try PAN(first.pan))
        let decision = try await repository.authorize(keyed) { account in
            account.availableBalance -= 1
            return AuthorizationDecision(result: .doNotHonour)
        }
        #expect(decision != nil)
        try await TestCards.seed(repository, keys: keys)
        #expect(try await repository.account(keyed)?.availableBalance == TestCards.balance - 1)
    }
}
