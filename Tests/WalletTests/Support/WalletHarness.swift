import CardEmulator
import Crypto
import EMV
import Foundation
import Issuer
import ReaderKernel
import SmartCard
import TestMode
import Wallet

/// A wallet on a phone next to a reader, with the issuer in process: the real issuer digitization service (in-memory
/// repositories, the test cards), the real wallet, the real card applet on a loopback and the real reader kernel.
/// Only the clock, the cardholder and the phone's switches are the test's.
struct WalletHarness {
    let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
    let cardholder = Cardholder()
    let phone = Phone()
    let storage: any WalletStorage
    let issuer: TestWalletIssuer
    let wallet: DigitalWallet
    let field = CardEmulationField()
    let channel: LoopbackChannel<WalletCardApplet>
    let kernel: ReaderKernel

    init(
        storage: any WalletStorage = InMemoryWalletStorage(), nfcPermission: Bool = true, eligible: Bool = true,
        applications: [SupportedApplication] = [.visa, .mastercard], keyCount: Int = 5
    ) throws {
        let clock = self.clock
        let cardholder = self.cardholder
        let phone = self.phone
        self.storage = storage
        issuer = try TestWalletIssuer(clock: clock.function, keyBatchSize: keyCount)
        let device = DeviceEnvironment(
            nfcPermissionGranted: nfcPermission, isEligibleForContactless: eligible,
            integrityCheck: { phone.integrity },
            authenticateUser: { reason in cardholder.authenticate(reason) },
            updateEmulationSheet: { update in phone.updateSheet(update) })
        wallet = DigitalWallet(
            configuration: WalletConfiguration(
                walletID: "wallet-1", deviceID: "device-1", issuer: issuer.walletService, storage: storage,
                storageKey: SymmetricKey(data: [UInt8](repeating: 0x42, count: 32)), device: device,
                clock: clock.function))
        channel = LoopbackChannel(applet: field.applet)
        var configuration = ReaderConfiguration.default(caPublicKeys: try CardProfile.testCAPublicKeys)
        configuration.applications = applications
        kernel = ReaderKernel(
            configuration: configuration, clock: clock.function, timeZone: TimeZone(identifier: "UTC") ?? .current)
    }

    /// Digitizes the approving test card of `scheme` through the whole flow: eligibility, Terms and Conditions,
    /// the one-time code from the issuer's outbox.
    func digitize(_ scheme: TestCard.Scheme) async throws -> DigitalCard {
        guard let card = TestCards.card(.approve, scheme) else { throw HarnessError("no approving \(scheme) card") }
        return try await digitize(pan: card.pan)
    }

    func digitize(pan: String) async throws -> DigitalCard {
        let service = wallet.cardDigitizationService
        let eligibility = try await service.checkEligibility(
            instrumentData: InstrumentData(fundingPAN: try PAN(pan), expiry: try ExpiryDate(year: 2030, month: 12)))
        let pending = try await service.digitizeCard(
            withTNC: eligibility.termsAndConditions.accept(), eligibility: eligibility)
        guard let code = await issuer.outbox.lastCode(for: pending.digitizationID) else {
            throw HarnessError("no one-time code in the outbox")
        }
        return try await service.verifyIdentity(pending, code: code)
    }

    /// A reader taps the phone: the card enters the field (anew) and the kernel runs a transaction.
    func tap(_ minorUnits: Int = 1_234, type: TransactionType = .purchase) async -> TransactionResult {
        await channel.presentCard()
        return await kernel.perform(
            TransactionRequest(amount: Amount(minorUnits: minorUnits, currency: .eur), type: type), over: channel)
    }

    /// A reader's field finds the phone and the reader leaves without a transaction: it powers the card and
    /// selects an application the card does not have (a transit gate's, say).
    func readerPassesBy() async throws {
        await channel.presentCard()
        let response = try await channel.transmit(try CommandAPDU.select(name: [0xA0, 0x00, 0x00, 0x09, 0x99, 0x01]))
        guard response.statusWord != .success else { throw HarnessError("the card has the passer-by's application") }
        await channel.presentCard()
    }

    /// A session on the harness's field.
    func session() -> ContactlessPaymentSession { ContactlessPaymentSession(wallet: wallet, field: field) }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
