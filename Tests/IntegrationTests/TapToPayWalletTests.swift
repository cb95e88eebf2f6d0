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
    @Test(arguments: [TestCard.Scheme.visa, .mastercard])
    func theWalletPaysAtTapToPayAndThePSPApproves(scheme: TestCard.Scheme) async throws {
        try await TestGateway.with { gateway in
            // The wallet's issuer is the gateway's: the same accounts, token vault and digitizations, in the
            // gateway's database.
            let repository = SQLIssuerRepository(database: gateway.application.database)
            let host = IssuerHost(keys: try #require(gateway.application.embeddedIssuerKeys), repository: repository)
            let outbox = OneTimeCodeOutbox()
            let digitization = DigitizationService(
                vault: try #require(host.tokenVault), store: repository, codes: outbox, clock: gateway.clock.function)
            let wallet = DigitalWallet(
                configuration: WalletConfiguration(
                    walletID: "wallet-1", deviceID: "phone-1", issuer: IssuerWalletService(service: digitization),
                    storage: InMemoryWalletStorage(), storageKey: SymmetricKey(size: .bits256),
                    device: .alwaysAuthenticated, clock: gateway.clock.function))
            let funding = try #require(TestCards.card(.approve, scheme))
            let service = wallet.cardDigitizationService
            let eligibility = try await service.checkEligibility(
                instrumentData: InstrumentData(
                    fundingPAN: try PAN(funding.pan), expiry: try ExpiryDate(year: 2030, month: 12)))
            let pending = try await service.digitizeCard(
                withTNC: eligibility.termsAndConditions.accept(), eligibility: eligibility)
            let code = try #require(await outbox.lastCode(for: pending.digitizationID))
            let card = try await service.verifyIdentity(pending, code: code)

            // The merchant's phone.
            let merchant = try await gateway.merchant()
            let token = try await gateway.token(merchant)
            let interface = LoopbackInterface()
            let reader = gateway.reader(interface: interface)
            try await reader.linkAccount(using: token)
            let readerSession = try await reader.prepare(using: token)

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
}
