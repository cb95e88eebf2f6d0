import CardEmulator
import ContactlessTesting
import Crypto
import EMV
import Foundation
import Gateway
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Testing
import TestMode
import Wallet

/// Where it pays (a): the wallet's card at the TapToPay reader in process, the read sealed to the live gateway, the
/// payment authorized by the gateway's issuer on the funding account.
@Suite(.serialized) struct TapToPayWalletTests {
    /// A wallet on `device` whose issuer is the gateway's: the same accounts, token vault and digitizations, in the
    /// gateway's database; and where its one-time codes go.
    static func wallet(
        on gateway: TestGateway, device: DeviceEnvironment = .alwaysAuthenticated
    ) throws -> (DigitalWallet, OneTimeCodeOutbox) {
        let repository = SQLIssuerRepository(database: gateway.application.database)
        let host = IssuerHost(keys: try #require(gateway.application.embeddedIssuerKeys), repository: repository)
        let outbox = OneTimeCodeOutbox()
        let digitization = DigitizationService(
            vault: try #require(host.tokenVault), store: repository, codes: outbox, clock: gateway.clock.function)
        let wallet = DigitalWallet(
            configuration: WalletConfiguration(
                walletID: "wallet-1", deviceID: "phone-1", issuer: IssuerWalletService(service: digitization),
                storage: InMemoryWalletStorage(), storageKey: SymmetricKey(size: .bits256),
                device: device, clock: gateway.clock.function))
        return (wallet, outbox)
    }

    /// `funding` digitized into `wallet`: eligibility, terms accepted, the one-time code from `codes`.
    static func digitize(
        _ funding: TestCard, into wallet: DigitalWallet, codes: OneTimeCodeOutbox
    ) async throws -> DigitalCard {
        let service = wallet.cardDigitizationService
        let eligibility = try await service.checkEligibility(
            instrumentData: InstrumentData(
                fundingPAN: try PAN(funding.pan), expiry: try ExpiryDate(year: 2030, month: 12)))
        let pending = try await service.digitizeCard(
            withTNC: eligibility.termsAndConditions.accept(), eligibility: eligibility)
        let code = try #require(await codes.lastCode(for: pending.digitizationID))
        return try await service.verifyIdentity(pending, code: code)
    }

    /// The merchant's phone: a reader linked and prepared for `merchant`, and its loopback interface.
    static func merchantPhone(
        _ gateway: TestGateway, _ merchant: TestMerchant
    ) async throws -> (LoopbackInterface, PaymentCardReaderSession) {
        let token = try await gateway.token(merchant)
        let interface = LoopbackInterface()
        let reader = gateway.reader(interface: interface)
        try await reader.linkAccount(using: token)
        return (interface, try await reader.prepare(using: token))
    }

    @Test(arguments: [TestCard.Scheme.visa, .mastercard])
    func theWalletPaysAtTapToPayAndThePSPApproves(scheme: TestCard.Scheme) async throws {
        try await TestGateway.with { gateway in
            let (wallet, outbox) = try Self.wallet(on: gateway)
            let funding = try #require(TestCards.card(.approve, scheme))
            let card = try await Self.digitize(funding, into: wallet, codes: outbox)

            // The merchant's phone.
            let merchant = try await gateway.merchant()
            let (interface, readerSession) = try await Self.merchantPhone(gateway, merchant)

            // The cardholder's phone: double-click, authenticate, emulate, tap.
            let field = CardEmulationField()
            let session = ContactlessPaymentSession(wallet: wallet, field: field)
            var events = try await SessionEvents.authenticated(session)
            try await session.startEmulation()
            await interface.tap(LoopbackChannel(applet: field.applet))
            let read = try await readerSession.readPaymentCard(
                PaymentCardTransactionRequest(amount: 12.34, currencyCode: "EUR"))
            #expect(read.outcome == .success)
            #expect(
                await events.rest() == [
                    "authenticationRequired", "authenticationCompleted", "posConnected", "transactionCompleted",
                ])
            #expect(!read.description.contains(funding.pan))

            let payment = try await gateway.authorize(read, minorUnits: 1_234, for: merchant).get()
            #expect(payment.status == .succeeded)
            #expect(payment.card?.last4 == card.details.lastFour)
            #expect(try await gateway.balance(funding) == TestCards.balance - 1_234)
        }
    }

    /// Scenario A end to end: the cardholder starts with the Visa card, cancels, and pays with the Mastercard card
    /// on the same session; the merchant's reader reads the Mastercard token and the PSP charges its funding card.
    @Test func afterACancelTheSameSessionPaysWithTheOtherCardAtTapToPay() async throws {
        try await TestGateway.with { gateway in
            let (wallet, outbox) = try Self.wallet(on: gateway)
            var cards: [DigitalCard] = []
            var fundings: [TestCard] = []
            for scheme in [TestCard.Scheme.visa, .mastercard] {
                let funding = try #require(TestCards.card(.approve, scheme))
                cards.append(try await Self.digitize(funding, into: wallet, codes: outbox))
                fundings.append(funding)
            }
            let (cardA, cardB) = (cards[0], cards[1])

            let merchant = try await gateway.merchant()
            let (interface, readerSession) = try await Self.merchantPhone(gateway, merchant)

            let field = CardEmulationField()
            let session = ContactlessPaymentSession(wallet: wallet, field: field)
            var first = try await SessionEvents.authenticated(session, digitalCardID: cardA.digitalCardID)
            try await session.startEmulation()
            await session.cancel()
            #expect(await first.rest().last == "error:cancelled")

            var second = try await SessionEvents.authenticated(session, digitalCardID: cardB.digitalCardID)
            try await session.startEmulation()
            await interface.tap(LoopbackChannel(applet: field.applet))
            let read = try await readerSession.readPaymentCard(
                PaymentCardTransactionRequest(amount: 7.5, currencyCode: "EUR"))
            #expect(read.outcome == .success)
            #expect(await second.rest().last == "transactionCompleted")
            #expect(second.completed?.scheme == .mastercard)

            let payment = try await gateway.authorize(read, minorUnits: 750, for: merchant).get()
            #expect(payment.status == .succeeded)
            #expect(payment.card?.last4 == cardB.details.lastFour)
            #expect(payment.card?.last4 != cardA.details.lastFour)
            #expect(try await gateway.balance(fundings[1]) == TestCards.balance - 750)
            #expect(try await gateway.balance(fundings[0]) == TestCards.balance)
        }
    }
}
