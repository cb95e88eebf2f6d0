import CardEmulator
import EMV
import Foundation
import Issuer
import SmartCard
import Testing
import TestMode

/// An issuer with the test accounts, its token vault and a digitization service whose codes land in an outbox, on a
/// clock the tests move.
struct DigitizationFixture {
    let keys: IssuerKeys
    let repository: InMemoryIssuerRepository
    let host: IssuerHost
    let vault: TokenVault
    let outbox: OneTimeCodeOutbox
    let clock: TestClock
    var service: DigitizationService

    init(keyBatchSize: Int = 10) throws {
        keys = try IssuerFixture.keys()
        repository = try TestCards.repository(keys: keys)
        host = IssuerHost(keys: keys, repository: repository)
        vault = try #require(host.tokenVault)
        outbox = OneTimeCodeOutbox()
        clock = TestClock(IssuerFixture.personalisationDate)
        service = DigitizationService(
            vault: vault, store: InMemoryDigitizationStore(), codes: outbox, clock: clock.function)
        service.keyBatchSize = keyBatchSize
    }

    /// The eligibility request for a test card, with the account's expiry (2030-12).
    static func request(_ behaviour: TestCard.Behaviour = .approve, _ scheme: TestCard.Scheme = .visa) throws
        -> EligibilityRequest
    {
        EligibilityRequest(
            fundingPAN: try PAN(try #require(TestCards.card(behaviour, scheme)).pan),
            expiry: try ExpiryDate(year: 2030, month: 12), walletID: "contactless-wallet", deviceID: "device-1")
    }

    /// Eligibility, terms, code from the outbox: a digitized card of the test card.
    func digitize(_ behaviour: TestCard.Behaviour = .approve, _ scheme: TestCard.Scheme = .visa) async throws
        -> DigitizedCard
    {
        let eligibility = try await service.checkEligibility(Self.request(behaviour, scheme))
        let pending = try await service.digitize(
            eligibilityID: eligibility.eligibilityID, acceptedTermsID: eligibility.termsAndConditions.id)
        let code = try #require(await outbox.lastCode(for: pending.digitizationID))
        return try await service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
    }

    /// The wallet's side: the shipped profile of the card's scheme as a template, with the token's data, holding
    /// the issued keys only; on the loopback.
    static func channel(_ card: DigitizedCard, seed: UInt64 = 5) throws -> LoopbackChannel<EmulatedCard> {
        let template = card.scheme == .visa ? try CardProfile.visaTest : try CardProfile.mastercardTest
        let profile = try template.digitized(
            pan: card.dpan, expiry: card.expiry, panSequenceNumber: card.panSequenceNumber)
        let applet = try profile.personalize(
            limitedUseKeys: limitedUseKeys(card.paymentKeys),
            environment: .fixed(at: IssuerFixture.transactionDate, seed: seed))
        return LoopbackChannel(applet: applet)
    }

    /// The issuer's payment keys as the card applet's keys.
    static func limitedUseKeys(_ keys: [PaymentKey]) -> [LimitedUseKey] {
        keys.map { LimitedUseKey(atc: $0.atc, sessionKey: $0.sessionKey, validUntil: $0.validUntil) }
    }

    /// The funding account's available balance.
    func balance(_ behaviour: TestCard.Behaviour = .approve, _ scheme: TestCard.Scheme = .visa) async throws -> Int? {
        let card = try #require(TestCards.card(behaviour, scheme))
        return try await repository.account(keys.keyedHash(of: try PAN(card.pan)))?.availableBalance
    }
}
