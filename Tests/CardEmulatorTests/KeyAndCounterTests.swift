import CardEmulator
import EMV
import Foundation
import Testing

/// The ATC and the limited-use keys: strictly increasing, never reused, skipped when expired, refused with
/// CardStatus.noPaymentKeys when gone, replenished only with newer ATCs.
@Suite struct KeyAndCounterTests {
    static let visaAID: [UInt8] = [0xA0, 0, 0, 0, 0x03, 0x10, 0x10]

    /// One Visa tap; returns the status and the ATC the card answered with.
    static func tap(_ card: inout EmulatedCard) throws -> (StatusWord, [UInt8]?) {
        card.reset()
        _ = card.respond(to: .selectPPSE)
        _ = card.respond(to: try .select(name: visaAID))
        let response = card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData()))
        guard response.statusWord == .success else { return (response.statusWord, nil) }
        return (response.statusWord, try TLV.parseOne(response.data).bytes(.applicationTransactionCounter))
    }

    @Test func atcIncreasesStrictlyAcrossTransactionsAndResets() throws {
        var (profile, card) = try Fixtures.visa()
        #expect(card.remainingKeyCount == profile.limitedUseKeys.count)
        var seen: [UInt16] = []
        for _ in 0..<5 {
            let (status, atc) = try Self.tap(&card)
            #expect(status == .success)
            let value = try #require(atc).reduce(UInt16(0)) { $0 << 8 | UInt16($1) }
            #expect(value > (seen.last ?? 0))
            seen.append(value)
            card.reset()
        }
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(card.lastATC == 5)
        #expect(card.remainingKeyCount == profile.limitedUseKeys.count - 5)
        #expect(card.nextATC == 6)
    }

    @Test func exhaustedKeysAnswerTheDistinctNoPaymentKeysStatus() throws {
        var profile = try CardProfile.visaTest
        profile.limitedUseKeys.count = 2
        var card = try Fixtures.card(profile)
        #expect(try Self.tap(&card).0 == .success)
        #expect(try Self.tap(&card).0 == .success)
        let (status, _) = try Self.tap(&card)
        #expect(status == CardStatus.noPaymentKeys)
        #expect(status == StatusWord(0x6A84))
        #expect(card.remainingKeyCount == 0 && card.nextATC == nil)
        // The status is none of the card's other answers.
        let others: [StatusWord] = [
            CardStatus.seePhone, CardStatus.wrongState, CardStatus.wrongLength, CardStatus.wrongParameters,
            CardStatus.fileNotFound, CardStatus.recordNotFound, CardStatus.dataNotFound, CardStatus.incorrectData,
            CardStatus.pinBlocked, CardStatus.instructionNotSupported, CardStatus.classNotSupported,
        ]
        #expect(!others.contains(CardStatus.noPaymentKeys))

        // Mastercard refuses at GENERATE AC.
        var mastercardProfile = try CardProfile.mastercardTest
        mastercardProfile.limitedUseKeys.count = 0
        var mastercard = try Fixtures.card(mastercardProfile)
        _ = mastercard.respond(to: try .select(name: [0xA0, 0, 0, 0, 0x04, 0x10, 0x10]))
        _ = mastercard.respond(to: try .getProcessingOptions())
        let ac = mastercard.respond(to: try .generateAC(.arqc, cdolData: Fixtures.mastercardCDOL1Data()))
        #expect(ac.statusWord == CardStatus.noPaymentKeys)
    }

    @Test func expiredKeysAreSkipped() throws {
        let profile = try CardProfile.visaTest
        let validity = TimeInterval(profile.limitedUseKeys.validitySeconds)
        var card = try profile.personalize(
            on: Fixtures.personalisationDate,
            environment: .fixed(at: Fixtures.personalisationDate.addingTimeInterval(validity + 1)))
        #expect(card.remainingKeyCount == 0)
        #expect(try Self.tap(&card).0 == CardStatus.noPaymentKeys)
    }

    @Test func replenishmentAddsNewerKeysOnly() throws {
        var profile = try CardProfile.visaTest
        profile.limitedUseKeys.count = 1
        var card = try Fixtures.card(profile)
        #expect(try Self.tap(&card).0 == .success)
        #expect(try Self.tap(&card).0 == CardStatus.noPaymentKeys)
        let validUntil = Fixtures.personalisationDate.addingTimeInterval(86_400)
        #expect(throws: CardEmulatorError.staleKeys) {
            try card.addKeys(try profile.limitedUseKeys(atcs: 1...3, validUntil: validUntil))
        }
        #expect(card.remainingKeyCount == 0, "a refused batch adds nothing")
        try card.addKeys(try profile.limitedUseKeys(atcs: 2...3, validUntil: validUntil))
        #expect(card.remainingKeyCount == 2)
        let (status, atc) = try Self.tap(&card)
        #expect(status == .success && atc == [0x00, 0x02])
        // The replenished key's ARQC verifies at the issuer like any other.
        var verify = card
        verify.reset()
        _ = verify.respond(to: try .select(name: Self.visaAID))
        let pdolData = Fixtures.visaPDOLData()
        let gpo = try TLV.parseOne(verify.respond(to: try .getProcessingOptions(pdolData: pdolData)).data)
        #expect(try Fixtures.issuerVerifies(profile, sent: [(profile.pdol, pdolData)], received: [gpo]))
    }

    @Test func cardholderVerificationIsConsumedOnceAndSurvivesReset() throws {
        var (_, card) = try Fixtures.visa()
        card.authenticateCardholder()
        card.reset()
        #expect(card.isCardholderVerified)
        _ = try Self.tap(&card)
        #expect(!card.isCardholderVerified)
        card.authenticateCardholder()
        card.clearCardholderVerification()
        #expect(!card.isCardholderVerified)
    }
}
