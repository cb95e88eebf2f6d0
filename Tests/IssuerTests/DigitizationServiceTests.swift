import TestMode
import CardEmulator
import EMV
import Foundation
import Issuer
import Testing

@Suite("Digitization service: eligibility, terms, one-time code, payment keys, token life cycle")
struct DigitizationServiceTests {
    @Test(
        "an eligible card gets the terms, its scheme and a ten-minute answer",
        arguments: [TestCard.Scheme.visa, .mastercard])
    func eligible(scheme: TestCard.Scheme) async throws {
        let fixture = try DigitizationFixture()
        let eligibility = try await fixture.service.checkEligibility(DigitizationFixture.request(.approve, scheme))
        #expect(eligibility.scheme.rawValue == scheme.rawValue)
        #expect(eligibility.termsAndConditions == fixture.service.termsAndConditions)
        #expect(!eligibility.termsAndConditions.text.isEmpty)
        #expect(eligibility.validUntil == fixture.clock.now.addingTimeInterval(600))
        #expect(!eligibility.eligibilityID.isEmpty)
    }

    @Test(
        "unknown, lost, blocked or expired accounts are not eligible",
        arguments: [
            TestCard.Behaviour.lost, .stolen, .expired, .doNotHonour,
        ])
    func ineligibleAccounts(behaviour: TestCard.Behaviour) async throws {
        let fixture = try DigitizationFixture()
        await #expect(throws: IssuerError.accountNotEligible) {
            try await fixture.service.checkEligibility(DigitizationFixture.request(behaviour))
        }
    }

    @Test("a PAN with no account, a wrong expiry, no token range or empty ids are refused with their codes")
    func ineligibleRequests() async throws {
        let fixture = try DigitizationFixture()
        var unknown = try DigitizationFixture.request()
        unknown.fundingPAN = try PAN("4761739001010010")
        await #expect(throws: IssuerError.accountNotEligible) { try await fixture.service.checkEligibility(unknown) }
        var wrongExpiry = try DigitizationFixture.request()
        wrongExpiry.expiry = try ExpiryDate(year: 2030, month: 11)
        await #expect(throws: IssuerError.expiryMismatch) { try await fixture.service.checkEligibility(wrongExpiry) }
        var noWallet = try DigitizationFixture.request()
        noWallet.walletID = ""
        await #expect(throws: IssuerError.invalidRequest) { try await fixture.service.checkEligibility(noWallet) }
        let vaultWithoutRanges = TokenVault(
            keys: fixture.keys, accounts: fixture.repository, tokens: fixture.repository, ranges: [])
        let service = DigitizationService(
            vault: vaultWithoutRanges, store: InMemoryDigitizationStore(), codes: fixture.outbox,
            clock: fixture.clock.function)
        await #expect(throws: IssuerError.noTokenRange) {
            try await service.checkEligibility(DigitizationFixture.request())
        }
    }

    @Test("digitize needs a known, current eligibility and the offered terms; it sends one six-digit code")
    func digitize() async throws {
        let fixture = try DigitizationFixture()
        let eligibility = try await fixture.service.checkEligibility(DigitizationFixture.request())
        await #expect(throws: IssuerError.unknownEligibility) {
            try await fixture.service.digitize(
                eligibilityID: "elg_nope", acceptedTermsID: eligibility.termsAndConditions.id)
        }
        await #expect(throws: IssuerError.termsNotAccepted) {
            try await fixture.service.digitize(eligibilityID: eligibility.eligibilityID, acceptedTermsID: "tc-2020-01")
        }
        let pending = try await fixture.service.digitize(
            eligibilityID: eligibility.eligibilityID, acceptedTermsID: eligibility.termsAndConditions.id)
        #expect(pending.maskedDestination.hasSuffix("0123"))
        #expect(!pending.maskedDestination.contains(fixture.outbox.phoneNumber))
        #expect(pending.codeValidUntil == fixture.clock.now.addingTimeInterval(300))
        let messages = await fixture.outbox.messages
        #expect(messages.count == 1)
        let code = try #require(messages.first?.code)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        #expect(messages.first?.fundingLastFour == "0119")
        #expect(!"\(messages)".contains(code))
        fixture.clock.advance(by: 601)
        await #expect(throws: IssuerError.eligibilityExpired) {
            try await fixture.service.digitize(
                eligibilityID: eligibility.eligibilityID, acceptedTermsID: eligibility.termsAndConditions.id)
        }
    }

    @Test("a failed code delivery voids the digitization")
    func deliveryFailure() async throws {
        let fixture = try DigitizationFixture()
        let eligibility = try await fixture.service.checkEligibility(DigitizationFixture.request())
        await fixture.outbox.setFailing(true)
        await #expect(throws: IssuerError.codeDeliveryFailed) {
            try await fixture.service.digitize(
                eligibilityID: eligibility.eligibilityID, acceptedTermsID: eligibility.termsAndConditions.id)
        }
        #expect(await fixture.outbox.messages.isEmpty)
    }

    /// A pending digitization of the Visa approve card and its code.
    static func pending(_ fixture: DigitizationFixture) async throws -> (PendingDigitization, String) {
        let eligibility = try await fixture.service.checkEligibility(DigitizationFixture.request())
        let pending = try await fixture.service.digitize(
            eligibilityID: eligibility.eligibilityID, acceptedTermsID: eligibility.termsAndConditions.id)
        return (pending, try #require(await fixture.outbox.lastCode(for: pending.digitizationID)))
    }

    /// A six-digit code that is not `code`.
    static func wrong(_ code: String) -> String { code == "000000" ? "000001" : "000000" }

    @Test("two wrong codes leave the third try; the right one then digitizes, once")
    func wrongThenRight() async throws {
        let fixture = try DigitizationFixture()
        let (pending, code) = try await Self.pending(fixture)
        for _ in 0..<2 {
            await #expect(throws: IssuerError.incorrectCode) {
                try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: Self.wrong(code))
            }
        }
        let card = try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
        #expect(card.dpan.digits.hasPrefix(IssuerKeys.testVisaTokenPrefix))
        await #expect(throws: IssuerError.digitizationVoid) {
            try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
        }
        await #expect(throws: IssuerError.unknownDigitization) {
            try await fixture.service.verifyIdentity(digitizationID: "dgt_nope", code: code)
        }
    }

    @Test("three wrong codes void the digitization: the right code no longer works")
    func triesExceeded() async throws {
        let fixture = try DigitizationFixture()
        let (pending, code) = try await Self.pending(fixture)
        for _ in 0..<2 {
            await #expect(throws: IssuerError.incorrectCode) {
                try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: Self.wrong(code))
            }
        }
        await #expect(throws: IssuerError.codeTriesExceeded) {
            try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: Self.wrong(code))
        }
        await #expect(throws: IssuerError.digitizationVoid) {
            try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
        }
        #expect(try await fixture.vault.tokens(of: DigitizationFixture.request().fundingPAN).isEmpty)
    }

    @Test("a code older than five minutes has expired and voids the digitization")
    func codeExpired() async throws {
        let fixture = try DigitizationFixture()
        let (pending, code) = try await Self.pending(fixture)
        fixture.clock.advance(by: 301)
        await #expect(throws: IssuerError.codeExpired) {
            try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
        }
        fixture.clock.advance(by: -10)
        await #expect(throws: IssuerError.digitizationVoid) {
            try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
        }
    }

    @Test(
        "the digitized card: a DPAN of the vault, PSN 00, the funding card's last four, keys for ATC 1 to 10",
        arguments: [
            TestCard.Scheme.visa, .mastercard,
        ])
    func digitizedCard(scheme: TestCard.Scheme) async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, scheme)
        let token = try #require(try await fixture.vault.token(for: card.dpan))
        #expect(token.status == .active && token.requestor == "contactless-wallet")
        #expect(token.expiry == card.expiry)
        #expect(
            token.fundingKeyedPAN
                == fixture.keys.keyedHash(of: try DigitizationFixture.request(.approve, scheme).fundingPAN))
        #expect(card.panSequenceNumber == "00")
        #expect(card.scheme.rawValue == scheme.rawValue)
        #expect(card.fundingLastFour == String(try #require(TestCards.card(.approve, scheme)).pan.suffix(4)))
        #expect(!card.tokenID.contains(card.dpan.digits))
        #expect(card.paymentKeys.map(\.atc) == Array(1...10))
        #expect(card.paymentKeys.allSatisfy { $0.sessionKey.count == 16 })
        #expect(Set(card.paymentKeys.map(\.sessionKey)).count == 10)
        #expect(card.paymentKeys.allSatisfy { $0.validUntil == fixture.clock.now.addingTimeInterval(30 * 24 * 3600) })
        #expect(try await fixture.service.status(tokenID: card.tokenID) == .active)
    }

    @Test(
        "payment keys are the card applet's limited-use keys of a card with the DPAN, PSN 00 and the token range's IMKs"
    )
    func keysMatchCardDerivation() async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, .mastercard)
        let imk = try #require(fixture.keys.masterKeys(forPAN: card.dpan.digits))
        // CardEmulator's issuer-side derivation (CVN 20: option A, common session key) from the range's IMKs.
        var profile = try CardProfile.mastercardTest
        profile.pan = card.dpan.digits
        profile.panSequenceNumber = "00"
        profile.cryptogramVersion = "mastercard20"
        profile.issuerMasterKeys = .init(ac: HexBytes(imk.ac), smi: HexBytes(imk.smi), smc: HexBytes(imk.smc))
        let expected = try profile.limitedUseKeys(atcs: 1...10, validUntil: card.paymentKeys[0].validUntil)
        #expect(DigitizationFixture.limitedUseKeys(card.paymentKeys) == expected)
    }

    @Test("replenishment continues above the highest ATC issued; bad counts are refused")
    func replenish() async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize()
        fixture.clock.advance(by: 3_600)
        let more = try await fixture.service.replenish(tokenID: card.tokenID, count: 5)
        #expect(more.map(\.atc) == Array(11...15))
        #expect(more.allSatisfy { $0.validUntil == fixture.clock.now.addingTimeInterval(30 * 24 * 3600) })
        let again = try await fixture.service.replenish(tokenID: card.tokenID, count: 1)
        #expect(again.map(\.atc) == [16])
        #expect(Set((card.paymentKeys + more + again).map(\.sessionKey)).count == 16)
        for count in [0, -1, 101] {
            await #expect(throws: IssuerError.invalidRequest) {
                try await fixture.service.replenish(tokenID: card.tokenID, count: count)
            }
        }
        await #expect(throws: IssuerError.unknownToken) {
            try await fixture.service.replenish(tokenID: "tok_nope", count: 1)
        }
    }

    @Test("the right code sent ten times at once provisions one token; concurrent replenishments never share an ATC")
    func concurrency() async throws {
        let fixture = try DigitizationFixture()
        let (pending, code) = try await Self.pending(fixture)
        let service = fixture.service
        let cards = await withTaskGroup(of: DigitizedCard?.self) { group in
            for _ in 0..<10 {
                group.addTask { try? await service.verifyIdentity(digitizationID: pending.digitizationID, code: code) }
            }
            return await group.reduce(into: [DigitizedCard]()) { if let card = $1 { $0.append(card) } }
        }
        #expect(cards.count == 1)
        #expect(try await fixture.vault.tokens(of: DigitizationFixture.request().fundingPAN).count == 1)
        let card = try #require(cards.first)
        let batches = try await withThrowingTaskGroup(of: [PaymentKey].self) { group in
            for _ in 0..<8 { group.addTask { try await service.replenish(tokenID: card.tokenID, count: 5) } }
            return try await group.reduce(into: [[PaymentKey]]()) { $0.append($1) }
        }
        let atcs = batches.flatMap { $0.map(\.atc) }
        #expect(atcs.sorted() == Array(11...50))
        #expect(batches.allSatisfy { batch in batch.map(\.atc) == Array(batch[0].atc...(batch[0].atc + 4)) })
    }

    @Test("suspend, resume and delete reach the vault; only an active token gets keys")
    func lifeCycle() async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize()
        try await fixture.service.setStatus(.suspended, tokenID: card.tokenID)
        #expect(try await fixture.vault.token(for: card.dpan)?.status == .suspended)
        #expect(try await fixture.service.status(tokenID: card.tokenID) == .suspended)
        await #expect(throws: IssuerError.tokenNotActive) {
            try await fixture.service.replenish(tokenID: card.tokenID, count: 1)
        }
        try await fixture.service.setStatus(.active, tokenID: card.tokenID)
        #expect(try await fixture.service.replenish(tokenID: card.tokenID, count: 1).map(\.atc) == [11])
        try await fixture.service.setStatus(.deleted, tokenID: card.tokenID)
        #expect(try await fixture.vault.token(for: card.dpan)?.status == .deleted)
        await #expect(throws: IssuerError.tokenNotActive) {
            try await fixture.service.replenish(tokenID: card.tokenID, count: 1)
        }
        await #expect(throws: IssuerError.unknownToken) {
            try await fixture.service.setStatus(.active, tokenID: card.tokenID)
        }
        await #expect(throws: IssuerError.unknownToken) {
            try await fixture.service.setStatus(.suspended, tokenID: "tok_nope")
        }
    }

    @Test("descriptions, mirrors and errors never show the DPAN, the funding PAN, keys or the code")
    func redaction() async throws {
        let fixture = try DigitizationFixture()
        let request = try DigitizationFixture.request()
        let (pending, code) = try await Self.pending(fixture)
        var printed = "\(request) \(String(reflecting: request)) \(pending)"
        var errorText = ""
        do {
            _ = try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: Self.wrong(code))
        } catch {
            errorText = "\(error) \(error.message)"
        }
        let card = try await fixture.service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
        let messages = await fixture.outbox.messages
        var dumped = ""
        dump(card, to: &dumped)
        dump(card.paymentKeys, to: &dumped)
        dump(messages, to: &dumped)
        printed += "\(card) \(card.paymentKeys) \(messages) \(dumped) \(errorText)"
        let secrets =
            [request.fundingPAN.digits, card.dpan.digits, code] + card.paymentKeys.map(\.sessionKey.hexString)
        for secret in secrets {
            #expect(!printed.contains(secret))
            #expect(!printed.lowercased().contains(secret.lowercased()))
        }
        #expect(printed.contains(card.dpan.masked))
    }
}
