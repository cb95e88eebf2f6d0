import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

@Suite("Chip payments by a wallet's digitized card: the ARQC of its limited-use keys verified at the issuer")
struct DigitizedCardPaymentTests {
    static let schemes: [TestCard.Scheme] = [.visa, .mastercard]

    /// Taps the card with the real kernel and sends the gateway's 0100 to the host.
    static func pay(
        _ fixture: DigitizationFixture, _ channel: LoopbackChannel<EmulatedCard>, minorUnits: Int = 1_000,
        stan: Int = 1, at date: Date = IssuerFixture.transactionDate
    ) async throws -> (request: ISO8583Message, response: ISO8583Message) {
        let data = try await IssuerFixture.tap(channel, minorUnits: minorUnits)
        let request = try IssuerFixture.authorizationRequest(data, minorUnits: minorUnits, stan: stan)
        return (request, try #require(await fixture.host.handle(request, at: date)))
    }

    @Test(
        "a card personalised from the digitized card pays: approved on the funding account, ATC spent, ARPC sent",
        arguments: schemes)
    func approved(scheme: TestCard.Scheme) async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, scheme)
        let channel = try DigitizationFixture.channel(card)
        let (request, response) = try await Self.pay(fixture, channel, minorUnits: 1_250)
        #expect(request[.pan]?.text == card.dpan.digits)
        #expect(request[.cardSequenceNumber]?.text == "000")
        #expect(response.responseCode == .approved)
        #expect(response[.authorizationCode]?.text?.count == 6)
        #expect(try response.iccData()?.first(.issuerAuthenticationData) != nil)
        #expect(try await fixture.balance(.approve, scheme) == TestCards.balance - 1_250)
        #expect(try await fixture.vault.token(for: card.dpan)?.lastATC == 1)
        // The record is the funding account's, so a 0400 with the DPAN reverses it.
        let reversal = try #require(
            await fixture.host.handle(try IssuerFixture.reversal(of: request), at: IssuerFixture.transactionDate))
        #expect(reversal.responseCode == .approved)
        #expect(try await fixture.balance(.approve, scheme) == TestCards.balance)
    }

    @Test("the same 0100 again is a replay (63); the next tap uses the next key and is approved")
    func replay() async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, .mastercard)
        let channel = try DigitizationFixture.channel(card)
        let (request, first) = try await Self.pay(fixture, channel)
        #expect(first.responseCode == .approved)
        var again = request
        again[.systemTraceAuditNumber] = "000002"
        again[.retrievalReferenceNumber] = "000000000002"
        #expect(
            await fixture.host.handle(again, at: IssuerFixture.transactionDate)?.responseCode == .cryptogramReplayed)
        let (_, next) = try await Self.pay(fixture, channel, stan: 3)
        #expect(next.responseCode == .approved)
        #expect(try await fixture.vault.token(for: card.dpan)?.lastATC == 2)
    }

    @Test("suspended: declined 05 and the account untouched; resumed: approved; deleted: 14", arguments: schemes)
    func lifeCycle(scheme: TestCard.Scheme) async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, scheme)
        let channel = try DigitizationFixture.channel(card)
        try await fixture.service.setStatus(.suspended, tokenID: card.tokenID)
        #expect(try await Self.pay(fixture, channel, stan: 1).response.responseCode == .doNotHonour)
        #expect(try await fixture.balance(.approve, scheme) == TestCards.balance)
        try await fixture.service.setStatus(.active, tokenID: card.tokenID)
        #expect(try await Self.pay(fixture, channel, stan: 2).response.responseCode == .approved)
        try await fixture.service.setStatus(.deleted, tokenID: card.tokenID)
        #expect(try await Self.pay(fixture, channel, stan: 3).response.responseCode == .invalidCardNumber)
        #expect(try await fixture.balance(.approve, scheme) == TestCards.balance - 1_000)
    }

    @Test("a payment after the token's expiry is declined 54")
    func expiredToken() async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, .visa)
        let channel = try DigitizationFixture.channel(card)
        let expiryEnd = try #require(
            Calendar(identifier: .gregorian).date(
                from: DateComponents(
                    timeZone: TimeZone(identifier: "UTC"), year: card.expiry.year, month: card.expiry.month + 1, day: 2)
            ))
        #expect(try await Self.pay(fixture, channel, at: expiryEnd).response.responseCode == .expiredCard)
    }

    @Test("the funding account's own decline applies to its token", arguments: schemes)
    func fundingDecline(scheme: TestCard.Scheme) async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.insufficientFunds, scheme)
        let channel = try DigitizationFixture.channel(card)
        #expect(try await Self.pay(fixture, channel).response.responseCode == .insufficientFunds)
    }

    @Test("a card with keys the issuer did not make is declined 88")
    func foreignKeys() async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, .visa)
        // Bit 1 of each key byte is DES parity, which changes nothing: flip bit 2.
        let forged = card.paymentKeys.map {
            PaymentKey(atc: $0.atc, sessionKey: $0.sessionKey.map { $0 ^ 0x02 }, validUntil: $0.validUntil)
        }
        let profile = try CardProfile.visaTest.digitized(pan: card.dpan, expiry: card.expiry, panSequenceNumber: "00")
        let applet = try profile.personalize(
            limitedUseKeys: DigitizationFixture.limitedUseKeys(forged),
            environment: .fixed(at: IssuerFixture.transactionDate, seed: 5))
        let response = try await Self.pay(fixture, LoopbackChannel(applet: applet)).response
        #expect(response.responseCode == .cryptogramFailure)
        #expect(try await fixture.vault.token(for: card.dpan)?.lastATC == nil)
    }

    @Test("past its last key the card has none and cannot pay; replenished keys pay", arguments: schemes)
    func replenishment(scheme: TestCard.Scheme) async throws {
        let fixture = try DigitizationFixture(keyBatchSize: 2)
        let card = try await fixture.digitize(.approve, scheme)
        let channel = try DigitizationFixture.channel(card)
        for stan in 1...2 {
            #expect(try await Self.pay(fixture, channel, stan: stan).response.responseCode == .approved)
        }
        #expect(await channel.withApplet { $0.remainingKeyCount } == 0)
        #expect(await channel.withApplet { $0.nextATC } == nil)
        let result = try await IssuerFixture.kernel().perform(
            TransactionRequest(amount: Amount(minorUnits: 1_000, currency: .eur)), over: channel)
        #expect(result.outcome.status != .onlineRequest && result.outcome.authorizationData == nil)
        let keys = try await fixture.service.replenish(tokenID: card.tokenID, count: 3)
        #expect(keys.map(\.atc) == [3, 4, 5])
        try await channel.withApplet { (applet) throws(CardEmulatorError) in
            try applet.addKeys(DigitizationFixture.limitedUseKeys(keys))
        }
        #expect(await channel.withApplet { $0.remainingKeyCount } == 3)
        #expect(try await Self.pay(fixture, channel, stan: 3).response.responseCode == .approved)
        #expect(try await fixture.vault.token(for: card.dpan)?.lastATC == 3)
        #expect(try await fixture.balance(.approve, scheme) == TestCards.balance - 3_000)
    }
}
