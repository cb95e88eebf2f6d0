import TestMode
import CardEmulator
import ContactlessTesting
import Crypto
import EMV
import Foundation
import ISO8583
import Issuer
import ReaderKernel
import Testing
import Wallet

/// Digitization, the card list and default, replenishment and the sealed store.
@Suite struct DigitalCardTests {
    @Test func digitizationNeedsEligibilityAcceptedTermsAndTheOneTimeCode() async throws {
        let harness = try WalletHarness()
        let service = harness.wallet.cardDigitizationService
        let expiry = try ExpiryDate(year: 2030, month: 12)
        let lost = try #require(TestCards.card(.lost, .visa))
        await #expect(throws: WalletError.notEligible) {
            try await service.checkEligibility(
                instrumentData: InstrumentData(fundingPAN: try PAN(lost.pan), expiry: expiry))
        }
        let approve = try #require(TestCards.card(.approve, .mastercard))
        let eligibility = try await service.checkEligibility(
            instrumentData: InstrumentData(fundingPAN: try PAN(approve.pan), expiry: expiry))
        #expect(eligibility.scheme == .mastercard)
        #expect(!eligibility.termsAndConditions.text.isEmpty)
        // Terms of another answer are not this one's acceptance.
        let other = TermsAndConditions(id: "other", text: "other").accept()
        await #expect(throws: WalletError.eligibilityExpired) {
            try await service.digitizeCard(withTNC: other, eligibility: eligibility)
        }
        let pending = try await service.digitizeCard(
            withTNC: eligibility.termsAndConditions.accept(), eligibility: eligibility)
        #expect(!pending.maskedDestination.isEmpty)
        let code = try #require(await harness.issuer.outbox.lastCode(for: pending.digitizationID))
        let wrong = code == "000000" ? "111111" : "000000"
        await #expect(throws: WalletError.identityVerificationFailed) {
            try await service.verifyIdentity(pending, code: wrong)
        }
        let card = try await service.verifyIdentity(pending, code: code)
        #expect(card.state == .active)
        #expect(card.isDefaultCard)
        #expect(card.details.scheme == .mastercard)
        #expect(card.details.fundingLastFour == String(approve.pan.suffix(4)))
        #expect(card.paymentKeyInfo.remainingKeys == 5)
        // The DPAN is a token-range number, shown as BIN and last four only.
        #expect(card.details.maskedDPAN.hasPrefix(IssuerKeys.testMastercardTokenPrefix))
        #expect(!card.description.contains(approve.pan))
        #expect(card.description.filter(\.isNumber).count <= 12)
    }

    @Test func eligibilityLapses() async throws {
        let harness = try WalletHarness()
        let service = harness.wallet.cardDigitizationService
        let approve = try #require(TestCards.card(.approve, .visa))
        let eligibility = try await service.checkEligibility(
            instrumentData: InstrumentData(
                fundingPAN: try PAN(approve.pan), expiry: try ExpiryDate(year: 2030, month: 12)))
        harness.clock.set(eligibility.validUntil.addingTimeInterval(1))
        await #expect(throws: WalletError.eligibilityExpired) {
            try await service.digitizeCard(withTNC: eligibility.termsAndConditions.accept(), eligibility: eligibility)
        }
    }

    @Test func listAndDefaultCard() async throws {
        let harness = try WalletHarness()
        let manager = harness.wallet.digitalCardManager
        #expect(try await manager.digitalCards().isEmpty)
        #expect(try await manager.defaultCard() == nil)
        let first = try await harness.digitize(.visa)
        let second = try await harness.digitize(.mastercard)
        #expect(try await manager.digitalCards().map(\.digitalCardID) == [first.digitalCardID, second.digitalCardID])
        #expect(try await manager.defaultCard()?.digitalCardID == first.digitalCardID)
        try await manager.setDefaultCard(digitalCardID: second.digitalCardID)
        #expect(try await manager.defaultCard()?.digitalCardID == second.digitalCardID)
        try await manager.unsetDefaultCard()
        #expect(try await manager.defaultCard() == nil)
        await #expect(throws: WalletError.invalidDigitalCardID) {
            try await manager.setDefaultCard(digitalCardID: "nope")
        }
    }

    @Test func replenishmentBelowTheThresholdContinuesTheATCs() async throws {
        let harness = try WalletHarness(keyCount: 4)
        let card = try await harness.digitize(.mastercard)
        let manager = harness.wallet.digitalCardManager
        let replenishment = harness.wallet.replenishmentService
        #expect(card.paymentKeyInfo.needsReplenishment == false)
        #expect(try await replenishment.replenish(digitalCardID: card.digitalCardID) == 0)
        for _ in 1...2 { _ = try await IssuerRoundTripTests.pay(harness) }
        let low = try #require(try await manager.digitalCard(forID: card.digitalCardID))
        #expect(low.paymentKeyInfo.remainingKeys == 2)
        #expect(low.paymentKeyInfo.needsReplenishment)
        #expect(try await replenishment.replenish(digitalCardID: card.digitalCardID) == 10)
        let full = try #require(try await manager.digitalCard(forID: card.digitalCardID))
        #expect(full.paymentKeyInfo.remainingKeys == 12)
        #expect(!full.paymentKeyInfo.needsReplenishment)
        #expect(try await replenishment.replenish(digitalCardID: card.digitalCardID, isForced: true) == 10)
        // The replenished keys pay at the issuer, after the first batch's.
        for stan in 1...3 {
            let data = try await IssuerRoundTripTests.pay(harness)
            #expect(
                try await IssuerRoundTripTests.authorize(harness, data, stan: stan).response[.responseCode]?.text
                    == "00")
        }
        #expect(try await manager.digitalCard(forID: card.digitalCardID)?.paymentKeyInfo.remainingKeys == 19)
    }

    @Test func noPaymentKeysThenReplenishedThenPays() async throws {
        let harness = try WalletHarness(keyCount: 1)
        let card = try await harness.digitize(.visa)
        _ = try await IssuerRoundTripTests.pay(harness)
        let empty = harness.session()
        var events = SessionEvents(empty)
        await empty.startPayment()
        #expect(await events.rest() == ["error:noPaymentKeys"])
        try await harness.wallet.replenishmentService.replenish(digitalCardID: card.digitalCardID)
        let data = try await IssuerRoundTripTests.pay(harness)
        #expect(try await IssuerRoundTripTests.authorize(harness, data, stan: 2).response[.responseCode]?.text == "00")
    }

    @Test func expiredKeysDoNotPay() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        harness.clock.advance(by: 31 * 24 * 3600)
        let session = harness.session()
        var events = SessionEvents(session)
        await session.startPayment()
        #expect(await events.rest() == ["error:noPaymentKeys"])
    }

    @Test func replenishingASuspendedCardIsRefused() async throws {
        let harness = try WalletHarness()
        let card = try await harness.digitize(.visa)
        try await harness.wallet.digitalCardManager.manage(digitalCardID: card.digitalCardID, action: .suspend)
        await #expect(throws: WalletError.cardNotActive) {
            try await harness.wallet.replenishmentService.replenish(digitalCardID: card.digitalCardID, isForced: true)
        }
    }

    @Test func theStoreHoldsOnlySealedRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileWalletStorage(directory: directory)
        let harness = try WalletHarness(storage: storage)
        let card = try await harness.digitize(.mastercard)
        let data = try await IssuerRoundTripTests.pay(harness)
        // Neither the DPAN (as digits, BCD or hex) nor a payment key's bytes appear in any stored file.
        let keys = try await harness.issuer.digitization.replenish(tokenID: card.tokenID, count: 1)
        let secrets: [[UInt8]] = [
            Array(data.pan.digits.utf8), data.pan.bcd, Array(data.pan.bcd.hexString.utf8), keys[0].sessionKey,
        ]
        for name in try storage.names() {
            let bytes = [UInt8](try #require(try storage.data(named: name)))
            for secret in secrets { #expect(!bytes.contains(secret)) }
        }
        // The same directory under another key does not open: keychainError.
        let stranger = DigitalWallet(
            configuration: WalletConfiguration(
                walletID: "wallet-1", deviceID: "device-1", issuer: harness.issuer.walletService, storage: storage,
                storageKey: SymmetricKey(size: .bits256), device: .alwaysAuthenticated, clock: harness.clock.function))
        await #expect(throws: WalletError.keychainError) { try await stranger.digitalCardManager.digitalCards() }
        // Under its own key it opens again (a restarted app).
        let reopened = DigitalWallet(configuration: harness.wallet.configuration)
        let cards = try await reopened.digitalCardManager.digitalCards()
        #expect(cards.map(\.digitalCardID) == [card.digitalCardID])
        // The payment's key stayed spent across the restart.
        #expect(cards.first?.paymentKeyInfo.remainingKeys == card.paymentKeyInfo.remainingKeys - 1)
    }
}
